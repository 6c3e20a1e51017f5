package dev.ratchet.connectors.mcp;

import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.IdempotencyKey;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolInvocation;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** Builds the invocations the engine would pass, for tests that call tools directly. */
public final class TestInvocations {

  private static final AtomicInteger SEQ = new AtomicInteger();

  private TestInvocations() {
  }

  public static ToolInvocation of(JsonObject args) {
    CallId id = CallId.of("session-1", "turn-" + SEQ.incrementAndGet(), 0);
    return new ToolInvocation("session-1", id, IdempotencyKey.of(id, args), 1, args,
        System.currentTimeMillis() + 15_000);
  }

  public static Tool named(List<Tool> tools, String name) {
    return tools.stream().filter(t -> t.name().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no tool " + name + " in " + tools));
  }
}
