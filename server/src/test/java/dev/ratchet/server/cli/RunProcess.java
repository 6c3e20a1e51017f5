package dev.ratchet.server.cli;

import dev.ratchet.server.Main;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code ratchet run} of this build's classes in a child JVM, as a user starts it in a folder: none
 * of the test machine's model, Redis, node or connection settings reach it.
 */
final class RunProcess {

  private RunProcess() {
  }

  /** The child's process builder, working in {@code dir}, its output merged; the caller adds its settings. */
  static ProcessBuilder in(Path dir) {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java, "-Xmx384m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "-cp", System.getProperty("java.class.path"), Main.class.getName(), "run")
        .directory(dir.toFile()).redirectErrorStream(true);
    Map<String, String> env = pb.environment();
    List.of("RATCHET_MODEL", "RATCHET_MODEL_BASE_URL", "OPENAI_API_KEY", "RATCHET_REDIS_URL", "RATCHET_NODE_ID",
        "RATCHET_REDIS_PORT").forEach(env::remove);
    env.entrySet().removeIf(e -> e.getKey().startsWith("RATCHET_CONNECTION_"));
    return pb;
  }
}
