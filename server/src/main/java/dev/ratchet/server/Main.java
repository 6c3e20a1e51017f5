package dev.ratchet.server;

import dev.ratchet.runtime.Redaction;
import dev.ratchet.server.bench.BenchCommand;
import dev.ratchet.server.cli.ChaosCommand;
import dev.ratchet.server.cli.InspectCommand;
import dev.ratchet.server.cli.ReloadCommand;
import dev.ratchet.server.cli.RunCommand;
import picocli.CommandLine;

/** {@code java -jar ratchet.jar [run|inspect|reload|bench|chaos]}; {@code run} is the default. */
@CommandLine.Command(name = "ratchet", mixinStandardHelpOptions = true, version = "ratchet 0.1.0",
    description = "A durable runtime for AI-agent tool calls.",
    subcommands = {RunCommand.class, InspectCommand.class, ReloadCommand.class, BenchCommand.class, ChaosCommand.class})
public final class Main implements Runnable {

  public static void main(String[] args) {
    prepareProcess();
    CommandLine cli = new CommandLine(new Main());
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
