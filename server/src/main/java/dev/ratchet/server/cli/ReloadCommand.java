package dev.ratchet.server.cli;

import dev.ratchet.server.reload.ControlFiles;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * Asks the running server of a data directory (the pid in {@code ratchet.pid}) to load its agents'
 * definitions again, through a request file rather than SIGHUP, so that a server started under
 * {@code nohup} is reached too, and prints the outcome from its report: the agents and their
 * catalogue versions, or why nothing changed.
 */
@CommandLine.Command(name = "reload", mixinStandardHelpOptions = true,
    description = "Reload the agents' definitions of the running server (new turns see them; turns in flight keep theirs).")
public final class ReloadCommand implements Callable<Integer> {

  @CommandLine.Mixin
  ConfigFile config = new ConfigFile();

  @CommandLine.Option(names = "--timeout", description = "seconds to wait for the reload's outcome (default: ${DEFAULT-VALUE})",
      defaultValue = "60")
  int timeoutSeconds;

  @Override
  public Integer call() throws Exception {
    ControlFiles files = ControlFiles.of(config.load(System.getenv()));
    long pid;
    try {
      pid = Long.parseLong(Files.readString(files.pid()).trim());
    } catch (NoSuchFileException e) {
      System.err.println("ratchet reload: no running server found: " + files.pid() + " does not exist"
          + " (is `ratchet run` running with this configuration?)");
      return 1;
    } catch (NumberFormatException e) {
      System.err.println("ratchet reload: " + files.pid() + " does not hold a process id");
      return 1;
    }
    Optional<ProcessHandle> server = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
    if (server.isEmpty()) {
      System.err.println("ratchet reload: the server of " + files.dataDir() + " (pid " + pid + ") is not running");
      return 1;
    }
    long before = lastReload(files.report(), pid);
    // a request file, not SIGHUP: a server started under nohup ignores SIGHUP for good
    try {
      files.writeRequest();
    } catch (IOException e) {
      System.err.println("ratchet reload: cannot ask the server of " + files.dataDir() + " (pid " + pid + "): "
          + files.request() + " cannot be written (" + e.getMessage() + ")");
      return 1;
    }
    long deadline = System.currentTimeMillis() + timeoutSeconds * 1000L;
    while (System.currentTimeMillis() < deadline) {
      JsonObject report = report(files.report());
      if (report != null && report.getLong("pid", 0L) == pid && report.getLong("reload", 0L) > before) {
        return print(report);
      }
      Thread.sleep(100);
    }
    System.err.println("ratchet reload: pid " + pid + " did not report a reload within " + timeoutSeconds
        + " s; see its log" + (Files.exists(files.request()) ? " (it has not taken the request " + files.request()
        + ": is it a server of this data directory?)" : ""));
    return 1;
  }

  private static int print(JsonObject report) {
    if ("reloaded".equals(report.getString("status"))) {
      System.out.println("reloaded: " + report.getJsonArray("agents").size() + " agent(s)");
      report.getJsonArray("agents").forEach(a -> {
        JsonObject agent = (JsonObject) a;
        System.out.println("  " + agent.getString("name") + " (catalogue " + agent.getString("catalogue") + ")");
      });
      return 0;
    }
    System.err.println("reload failed, nothing changed: " + report.getString("error"));
    return 1;
  }

  /** The number of the server's last reload; a report of an earlier server of the directory counts as none. */
  private static long lastReload(Path file, long pid) {
    JsonObject report = report(file);
    return report == null || report.getLong("pid", 0L) != pid ? 0 : report.getLong("reload", 0L);
  }

  private static JsonObject report(Path file) {
    try {
      return new JsonObject(Files.readString(file));
    } catch (IOException | DecodeException e) {
      return null;
    }
  }
}
