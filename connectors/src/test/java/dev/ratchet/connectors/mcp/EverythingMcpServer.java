package dev.ratchet.connectors.mcp;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The official MCP reference server {@code @modelcontextprotocol/server-everything}, installed from
 * the npm registry once per machine (into the temporary folder, shared by every test class that
 * uses it). Its {@code get-env} tool answers with the server's whole environment, which is what a
 * test of child environments and redaction needs. A test using it is skipped, with the reason,
 * only when npm or node is missing or the registry cannot be reached; any other install failure
 * fails the test.
 */
public final class EverythingMcpServer {

  public static final String PACKAGE = "@modelcontextprotocol/server-everything";
  public static final String VERSION = "2026.8.31";

  private static Path entry;

  private EverythingMcpServer() {
  }

  /** The server's {@code dist/index.js}, installing it first when needed. */
  public static synchronized Path entryPoint() throws IOException, InterruptedException {
    if (entry != null) {
      return entry;
    }
    Path home = Path.of(System.getProperty("java.io.tmpdir"), "ratchet-mcp-everything-" + VERSION);
    Path index = home.resolve("node_modules/" + PACKAGE + "/dist/index.js");
    if (!Files.isRegularFile(index)) {
      Assumptions.assumeTrue(runs("node", "--version"), "node is not installed: the MCP reference server cannot run");
      Assumptions.assumeTrue(runs("npm", "--version"), "npm is not installed: the MCP reference server cannot be"
          + " installed");
      Path staging = Files.createTempDirectory("ratchet-mcp-everything-");
      Result install = run(List.of("npm", "install", "--prefix", staging.toString(), "--no-audit", "--no-fund",
          "--loglevel=error", PACKAGE + "@" + VERSION), 300);
      if (install.code != 0) {
        Result ping = run(List.of("npm", "ping"), 60);
        Assumptions.assumeTrue(ping.code == 0, "the npm registry cannot be reached, so " + PACKAGE
            + " cannot be installed: " + ping.output.strip());
        throw new IllegalStateException("npm install " + PACKAGE + "@" + VERSION + " failed: " + install.output);
      }
      try {
        try {
          Files.move(staging, home, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(staging, home);
        }
      } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
        // another run installed it meanwhile: use that one
      }
    }
    if (!Files.isRegularFile(index)) {
      throw new IllegalStateException("npm installed " + PACKAGE + " but " + index + " is missing");
    }
    entry = index;
    return entry;
  }

  /** A stdio server configuration that runs the reference server with node. */
  public static McpServerConfig.Builder stdio(String name) throws IOException, InterruptedException {
    return McpServerConfig.stdio(name, "node", entryPoint().toString(), "stdio");
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
    Process p = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true).start();
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
