package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.journal.JournalPorts;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A listener that hears only some step events gets exactly those, whole, and the session journals
 * every step as it would for a listener that hears them all.
 */
class StepEventListenerTest {

  @RegisterExtension
  final EngineHarness h = new EngineHarness();

  @Test
  void aListenerGetsTheEventsItWantsWholeAndTheJournalKeepsEveryStep() {
    List<JsonObject> heard = new CopyOnWriteArrayList<>();
    StepEventListener onlyCompletions = new StepEventListener() {
      @Override
      public boolean wants(String type) {
        return "turn.completed".equals(type);
      }

      @Override
      public void accept(JsonObject event) {
        heard.add(event);
      }
    };
    FunctionToolSource tools = FunctionToolSource.create("t")
        .tool(FunctionToolSource.define("look", EffectClass.READ)
            .handler(inv -> Future.succeededFuture(new JsonObject().put("seen", true))));
    ToolCatalog catalog = await(ToolCatalog.resolve(h.vertx, AgentDefinition.builder("a").toolSource(tools).build()));
    SessionEngine engine = new SessionEngine(h.vertx, h.journal, h.sessionId, catalog, EngineOptions.DEFAULT,
        onlyCompletions);
    await(engine.start("test-node"));

    TurnResult result = await(engine.accept(Turn.of("t1", new ToolCall("look", new JsonObject()),
        new ToolCall("look", new JsonObject()))).compose(done -> done.result()));

    assertThat(result.calls()).extracting(c -> c.outcome()).containsExactly(Outcome.SUCCEEDED, Outcome.SUCCEEDED);
    assertThat(heard).extracting(e -> e.getString("type")).containsExactly("turn.completed");
    assertThat(heard.get(0).getJsonObject("data")).isEqualTo(result.toJson());
    assertThat(await(JournalPorts.queries(h.journal).events(h.sessionId, null,
        100))).extracting(e -> e.getString("type"))
        .containsExactly("session.claimed", "turn.submitted", "call.completed", "call.completed", "turn.completed");
  }
}
