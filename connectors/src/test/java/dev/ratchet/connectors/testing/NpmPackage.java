package dev.ratchet.connectors.testing;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A package from the npm registry, installed once per machine into the temporary folder and shared
 * by every test that uses it. A test is skipped, with the reason, only when node or npm is missing
 * or the registry cannot be reached; any other install failure fails it.
 */
public final class NpmPackage {

  private NpmPackage() {
  }

  /**
   * The file {@code file} of {@code pkg@version}, installed first into {@code folder} of the
   * temporary folder when it is not there yet.
   */
  public static Path file(String folder, String pkg, String version, String file) throws IOException,
      InterruptedException {
    Path home = Path.of(System.getProperty("java.io.tmpdir"), folder);
    Path path = home.resolve("node_modules/" + pkg + "/" + file);
    if (!Files.isRegularFile(path)) {
      Assumptions.assumeTrue(runs("node", "--version"), "node is not installed: " + pkg + " cannot run");
      Assumptions.assumeTrue(runs("npm", "--version"), "npm is not installed: " + pkg + " cannot be installed");
      Path staging = Files.createTempDirectory(folder);
      Result install = run(List.of("npm", "install", "--prefix", staging.toString(), "--no-audit", "--no-fund",
          "--loglevel=error", pkg + "@" + version), 300);
      if (install.code != 0) {
        Result ping = run(List.of("npm", "ping"), 60);
        Assumptions.assumeTrue(ping.code == 0, "the npm registry cannot be reached, so " + pkg
            + " cannot be installed: " + ping.output.strip());
        throw new IllegalStateException("npm install " + pkg + "@" + version + " failed: " + install.output);
      }
      try {
        try {
          Files.move(staging, home, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(staging, home);
        }
      } catch (FileSystemException e) {
        // rename(2) answers ENOTEMPTY, which Java reports as a plain FileSystemException, when
        // another test JVM installed the package meanwhile: use that one
        if (!Files.isRegularFile(path)) {
          throw e;
        }
      }
    }
    if (!Files.isRegularFile(path)) {
      throw new IllegalStateException("npm installed " + pkg + " but " + path + " is missing");
    }
    return path;
  }

  private static boolean runs(String... command) {
    try {
      return run(List.of(command), 30).code == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private record Result(int code, String output) {
  }

  private static Result run(List<String> command, long timeoutSeconds) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true);
    pb.environment().put("NO_COLOR", "1");
    Process p = pb.start();
    p.getOutputStream().close();
    byte[][] out = new byte[1][];
    Thread reader = new Thread(() -> {
      try (InputStream in = p.getInputStream()) {
        out[0] = in.readAllBytes();
      } catch (IOException e) {
        out[0] = new byte[0];
      }
    });
    reader.start();
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      reader.join(5_000);
      return new Result(-1, String.join(" ", command) + " did not finish within " + timeoutSeconds + " s");
    }
    reader.join(5_000);
    return new Result(p.exitValue(), out[0] == null ? "" : new String(out[0], StandardCharsets.UTF_8));
  }
}
