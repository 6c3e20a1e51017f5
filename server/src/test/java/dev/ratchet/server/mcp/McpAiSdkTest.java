package dev.ratchet.server.mcp;

import dev.ratchet.server.RunChild;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A framework from the npm registry with Ratchet as its MCP server: the Vercel AI SDK's MCP client
 * and its own mock model ({@code server/src/test/node/mcp-ai-sdk}), run with {@code node --test}
 * against {@code ratchet run}. Skipped, saying so, where npm is not on the PATH.
 */
class McpAiSdkTest {

  private static final Path PROJECT = Path.of("src", "test", "node", "mcp-ai-sdk");
  private static final String TOKEN = "rt_mcp-child-token-0123456789";
  private static final String PASSWORD = "mcp-child-password";

  @TempDir
  Path dir;

  private RunChild ratchet;

  @AfterEach
  void stop() throws Exception {
    if (ratchet != null) {
      ratchet.close();
    }
  }

  @Test
  void theVercelAiSdkListsCallsAndIsRefusedThroughRatchetsMcpEndpoint() throws Exception {
    assumeTrue(onPath("npm") && onPath("node"), "npm and node are not on the PATH: the AI SDK test is skipped");
    Path work = Path.of("target", "mcp-ai-sdk");
    Files.createDirectories(work);
    for (String file : List.of("package.json", "package-lock.json", "mcp.test.mjs")) {
      Files.copy(PROJECT.resolve(file), work.resolve(file), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    // the lock pins every package, so each run tests the same AI SDK
    Run install = run(work, Map.of(), 600, "npm", "ci", "--no-audit", "--no-fund", "--cache",
        Path.of("target", "npm-cache").toAbsolutePath().toString());
    assertThat(install.exit).as(install.output).isZero();

    RunChild.copyDemo(dir);
    ratchet = new RunChild(TOKEN, PASSWORD).start(dir, RunChild.RUNNING, 120);
    Run test = run(work, Map.of("RATCHET_URL", ratchet.baseUrl(), "RATCHET_TOKEN", TOKEN,
        "RATCHET_ADMIN_PASSWORD", PASSWORD), 300, "node", "--test", "mcp.test.mjs");
    assertThat(test.exit).as(test.output).isZero();
    assertThat(test.output).contains("# pass 3").contains("# fail 0");
  }

  private record Run(int exit, String output) {
  }

  private static Run run(Path work, Map<String, String> env, int seconds, String... command) throws Exception {
    File log = Files.createTempFile("mcp-ai-sdk", ".log").toFile();
    ProcessBuilder pb = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true)
        .redirectOutput(log);
    pb.environment().putAll(env);
    pb.environment().put("NO_COLOR", "1");
    Process p = pb.start();
    if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return new Run(-1, "timed out after " + seconds + " s: " + Files.readString(log.toPath()));
    }
    String output = Files.readString(log.toPath(), StandardCharsets.UTF_8);
    Files.deleteIfExists(log.toPath());
    return new Run(p.exitValue(), output);
  }

  private static boolean onPath(String program) {
    String path = System.getenv("PATH");
    return path != null && Stream.of(path.split(File.pathSeparator))
        .anyMatch(d -> Files.isExecutable(Path.of(d, program)));
  }
}
