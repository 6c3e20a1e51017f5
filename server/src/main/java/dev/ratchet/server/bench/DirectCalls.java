package dev.ratchet.server.bench;

import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.IdempotencyKey;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.server.impl.TransportChoice;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/** The bench workload's tools called directly for two seconds, without a journal: the baseline of {@code bench}. */
final class DirectCalls {

  private DirectCalls() {
  }

  static double callsPerSecond(TransportChoice transport) {
    Vertx vertx = transport.vertx();
    try {
      List<Tool> tools = new ArrayList<>();
      Workload.agent().toolSources().forEach(s -> tools.addAll(s.tools(vertx).result()));
      long calls = 0;
      long end = System.currentTimeMillis() + 2000;
      long start = System.nanoTime();
      while (System.currentTimeMillis() < end) {
        for (Tool t : tools) {
          CallId id = CallId.of("direct", "t", (int) (calls % 5));
          t.invoke(new ToolInvocation("direct", id, IdempotencyKey.of(id, new JsonObject()), 1, new JsonObject(),
              Long.MAX_VALUE)).result();
          calls++;
        }
      }
      return calls / ((System.nanoTime() - start) / 1e9);
    } finally {
      vertx.close();
    }
  }
}
