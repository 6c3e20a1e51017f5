package dev.ratchet.verticles.crash;

import dev.ratchet.runtime.testing.ChildJvm;
import io.vertx.core.json.JsonObject;

import java.io.IOException;

/**
 * A runtime in a child JVM ({@link CrashNode} unless another main class is given), started once it
 * prints {@code {"event":"ready"}} and takes commands on stdin.
 */
final class ChildRuntime extends ChildJvm {

  ChildRuntime(String redisUrl, String prefix, String providerUrl) throws IOException {
    this(CrashNode.class, redisUrl, prefix, providerUrl);
  }

  ChildRuntime(Class<?> main, String... args) throws IOException {
    super(main, args);
    awaitEvent("ready", 60);
  }

  JsonObject awaitResult(String turnId, int seconds) {
    return await(j -> "result".equals(j.getString("event"))
        && turnId.equals(j.getJsonObject("results").getString("turnId")), seconds).getJsonObject("results");
  }
}
