package dev.ratchet.server;

import dev.ratchet.runtime.Redaction;
import dev.ratchet.server.bench.BenchCommand;
import dev.ratchet.server.cli.ChaosCommand;
import dev.ratchet.server.cli.CheckCommand;
import dev.ratchet.server.cli.ExportCommand;
import dev.ratchet.server.cli.ImportCommand;
import dev.ratchet.server.cli.InspectCommand;
import dev.ratchet.server.cli.ReloadCommand;
import dev.ratchet.server.cli.RunCommand;
import picocli.CommandLine;

import java.io.PrintWriter;

/** {@code java -jar ratchet.jar [run|check|reload|inspect|export|import|bench|chaos]}; {@code run} is the default. */
@CommandLine.Command(name = "ratchet", mixinStandardHelpOptions = true, version = "ratchet 0.1.0",
    description = "A durable runtime for AI-agent tool calls.",
    subcommands = {RunCommand.class, CheckCommand.class, ReloadCommand.class, InspectCommand.class, ExportCommand.class,
        ImportCommand.class, BenchCommand.class, ChaosCommand.class})
public final class Main implements Runnable {

  public static void main(String[] args) {
    prepareProcess();
    CommandLine cli = withPlainErrors(new CommandLine(new Main()));
    String[] effective = args.length == 0 || args[0].startsWith("-") && !isHelpOrVersion(args[0])
        ? prepend("run", args) : args;
    int code = cli.execute(effective);
    if (code != 0 || !"run".equals(effective[0])) {
      System.exit(code);
    }
  }

  /**
   * Runs before anything else, before any logger exists: whatever a library logs to standard error
   * or prints to standard output (the MCP SDK logs what servers send) is scrubbed of secrets.
   */
  static void prepareProcess() {
    Redaction.redactStandardStreams();
  }

  /**
   * A bad command or option, and a command that fails, end with one line saying what is wrong and
   * the command's usage line, never a stack trace; the exit code is 2 for bad usage, 1 for a failure.
   */
  static CommandLine withPlainErrors(CommandLine cli) {
    cli.setParameterExceptionHandler((ex, args) -> {
      CommandLine cmd = ex.getCommandLine();
      PrintWriter err = cmd.getErr();
      err.println(name(cmd) + ": " + ex.getMessage());
      CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
      err.print("Usage: " + cmd.getHelp().synopsis(0));
      err.println("Run '" + name(cmd) + " --help' for more.");
      err.flush();
      return 2;
    });
    cli.setExecutionExceptionHandler((ex, cmd, parsed) -> {
      PrintWriter err = cmd.getErr();
      String message = ex.getMessage() == null || ex.getMessage().isBlank() ? ex.toString() : ex.getMessage();
      err.println(name(cmd) + " failed: " + message);
      err.print("Usage: " + cmd.getHelp().synopsis(0));
      err.flush();
      return 1;
    });
    return cli;
  }

  private static String name(CommandLine cmd) {
    return cmd.getParent() == null ? cmd.getCommandName() : name(cmd.getParent()) + " " + cmd.getCommandName();
  }

  private static boolean isHelpOrVersion(String arg) {
    return arg.equals("-h") || arg.equals("--help") || arg.equals("-V") || arg.equals("--version");
  }

  private static String[] prepend(String first, String[] rest) {
    String[] out = new String[rest.length + 1];
    out[0] = first;
    System.arraycopy(rest, 0, out, 1, rest.length);
    return out;
  }

  @Override
  public void run() {
    new CommandLine(this).usage(System.out);
  }
}
