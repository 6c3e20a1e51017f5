package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.journal.JournalPorts;
import dev.ratchet.runtime.journal.ClaimedSession;
import dev.ratchet.runtime.journal.TurnSubmission;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.agent.AgentLoop;
import dev.ratchet.runtime.agent.ModelResponse;
import dev.ratchet.runtime.agent.ScriptedModel;
import dev.ratchet.runtime.journal.InMemoryJournal;
import dev.ratchet.runtime.journal.SessionJournal;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.ratchet.runtime.testing.Await.await;
import static dev.ratchet.runtime.testing.Await.failure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A session's caller: fixed when the session is created, kept in the journal, handed to every tool
 * invocation, and the same after the session's engine stops and another one takes over.
 */
class SessionCallerTest {

  private static final JsonObject SCHEMA = new JsonObject("""
      {"type":"object","properties":{"orderId":{"type":"string"}},"required":["orderId"]}""");

  private final String sessionId = "s-" + UUID.randomUUID();
  /** The journal every node shares, as nodes share one Redis. */
  private final Vertx journalVertx = Vertx.vertx();
  private final SessionJournal sharedJournal = InMemoryJournal.create(journalVertx);
  private final List<Node> nodes = new ArrayList<>();
  /** Each invocation's caller id, as "tool:callerId". */
  private final List<String> seen = new CopyOnWriteArrayList<>();
  /** When set, the read "hang" never answers: its turn stays in flight. */
  private final List<Promise<Object>> hanging = new CopyOnWriteArrayList<>();

  private final class Node {
    final Vertx vertx = Vertx.vertx();
    final SessionJournal journal = sharedJournal;
    SessionEngine engine;

    Node() {
      nodes.add(this);
    }

    SessionEngine start() {
      ToolCatalog catalog = await(ToolCatalog.resolve(vertx, agent().build()));
      engine = new SessionEngine(vertx, journal, sessionId, catalog, EngineOptions.DEFAULT, e -> { });
      await(engine.start("node-" + UUID.randomUUID()));
      return engine;
    }

    void kill() {
      await(vertx.close());
    }
  }

  private AgentDefinition.Builder agent() {
    FunctionToolSource tools = FunctionToolSource.create("t")
        .read("look", "Look up", SCHEMA, inv -> {
          seen.add("look:" + inv.callerId());
          return Future.succeededFuture(new JsonObject().put("caller", inv.callerId()));
        })
        .read("hang", "Never answers on the first node", SCHEMA, inv -> {
          seen.add("hang:" + inv.callerId());
          if (hanging.isEmpty()) {
            return Future.succeededFuture(new JsonObject());
          }
          Promise<Object> p = Promise.promise();
          hanging.add(p);
          return p.future();
        })
        .tool(FunctionToolSource.define("refund", EffectClass.NON_IDEMPOTENT_WRITE).schema(SCHEMA).handler(inv -> {
          seen.add("refund:" + inv.callerId());
          return Future.succeededFuture(new JsonObject().put("refunded", true));
        }));
    return AgentDefinition.builder("caller-agent").toolSource(tools);
  }

  @AfterEach
  void tearDown() {
    for (Node n : nodes) {
      try {
        n.kill();
      } catch (RuntimeException ignored) {
        // already gone
      }
    }
    await(journalVertx.close());
  }

  private static Turn turn(String id, String... tools) {
    List<ToolCall> calls = new ArrayList<>();
    for (String t : tools) {
      calls.add(new ToolCall(t, new JsonObject().put("orderId", "1")));
    }
    return new Turn(id, calls);
  }

  private int eventCount(SessionJournal journal) {
    return await(JournalPorts.queries(journal).events(sessionId, null, 10_000)).size();
  }

  @Test
  void theCallerReachesEveryInvocationAndSurvivesARestart() {
    Node first = new Node();
    SessionEngine engine = first.start();
    TurnResult r = await(engine.submit(turn("t1", "look", "refund"), "tenant-a"));
    assertThat(r.calls()).allSatisfy(c -> assertThat(c.outcome()).isEqualTo(Outcome.SUCCEEDED));
    assertThat(seen).containsExactlyInAnyOrder("look:tenant-a", "refund:tenant-a");
    assertThat(engine.callerId()).isEqualTo("tenant-a");
    assertThat(await(JournalPorts.queries(first.journal).sessionInfo(sessionId)).getString("caller")).isEqualTo("tenant-a");

    // same caller again, and no caller (the trusted Java API): both run as the session's caller
    await(engine.submit(turn("t2", "look"), "tenant-a"));
    await(engine.submit(turn("t3", "look")));
    assertThat(seen).containsExactlyInAnyOrder("look:tenant-a", "refund:tenant-a", "look:tenant-a", "look:tenant-a");
    await(engine.stop());
    first.kill();

    // another engine (passivation, or a restart on another node) reads the caller from the journal
    seen.clear();
    Node second = new Node();
    SessionEngine again = second.start();
    assertThat(again.callerId()).isEqualTo("tenant-a");
    await(again.submit(turn("t4", "look", "refund")));
    assertThat(seen).containsExactlyInAnyOrder("look:tenant-a", "refund:tenant-a");
  }

  @Test
  void anotherCallerIsRefusedAndNothingIsJournaled() {
    Node node = new Node();
    SessionEngine engine = node.start();
    await(engine.submit(turn("t1", "look"), "tenant-a"));
    int before = eventCount(node.journal);
    seen.clear();

    Throwable refused = failure(engine.submit(turn("t2", "refund"), "tenant-b"));
    assertThat(refused).isInstanceOf(RatchetException.class).hasMessageContaining("another caller");
    assertThat(((RatchetException) refused).code()).isEqualTo("CALLER_MISMATCH");
    // nor may another caller read a turn's results by submitting the same turn again
    Throwable replay = failure(engine.submit(turn("t1", "look"), "tenant-b"));
    assertThat(((RatchetException) replay).code()).isEqualTo("CALLER_MISMATCH");

    assertThat(seen).isEmpty();
    assertThat(eventCount(node.journal)).isEqualTo(before);
    assertThat(await(node.journal.turnResult(sessionId, "t2"))).isNull();
    assertThat(await(JournalPorts.queries(node.journal).sessionInfo(sessionId)).getString("caller")).isEqualTo("tenant-a");
  }

  @Test
  void aSessionCreatedWithoutACallerKeepsNone() {
    Node node = new Node();
    SessionEngine engine = node.start();
    await(engine.submit(turn("t1", "look")));
    assertThat(seen).containsExactly("look:null");
    assertThat(await(JournalPorts.queries(node.journal).sessionInfo(sessionId)).containsKey("caller")).isFalse();

    Throwable refused = failure(engine.submit(turn("t2", "look"), "tenant-a"));
    assertThat(((RatchetException) refused).code()).isEqualTo("CALLER_MISMATCH");
    assertThat(refused).hasMessageContaining("without a caller");
    assertThat(seen).containsExactly("look:null");
  }

  @Test
  void aTurnResumedAfterACrashRunsAsTheSessionsCaller() {
    hanging.add(Promise.promise());
    Node first = new Node();
    SessionEngine engine = first.start();
    Future<TurnResult> inFlight = engine.submit(turn("t1", "hang"), "tenant-a");
    long deadline = System.currentTimeMillis() + 10_000;
    while (seen.isEmpty() && System.currentTimeMillis() < deadline) {
      sleep(10);
    }
    assertThat(seen).containsExactly("hang:tenant-a");
    // while the turn runs, another caller cannot attach to it
    Throwable refused = failure(engine.submit(turn("t1", "hang"), "tenant-b"));
    assertThat(((RatchetException) refused).code()).isEqualTo("CALLER_MISMATCH");
    assertThat(inFlight.isComplete()).isFalse();
    first.kill();

    hanging.clear();
    seen.clear();
    Node second = new Node();
    SessionEngine resumed = second.start();
    TurnResult r = await(resumed.submit(turn("t1", "hang")));
    assertThat(r.calls().get(0).outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(seen).containsExactly("hang:tenant-a");
  }

  @Test
  void theAgentLoopsFirstMessageSetsTheCallerForItsToolCalls() {
    Node node = new Node();
    ScriptedModel model = ScriptedModel.of(
        ModelResponse.toolCalls(new ToolCall("look", new JsonObject().put("orderId", "1"), "c1")),
        ModelResponse.text("done"));
    AgentDefinition agent = agent().model(model).build();
    ToolCatalog catalog = await(ToolCatalog.resolve(node.vertx, agent));
    io.vertx.core.Context ctx = node.vertx.getOrCreateContext();
    Promise<AgentLoop> ready = Promise.promise();
    ctx.runOnContext(v -> {
      SessionEngine engine = new SessionEngine(node.vertx, node.journal, sessionId, catalog, EngineOptions.DEFAULT,
          e -> { });
      AgentLoop loop = new AgentLoop(node.vertx, node.journal, engine, agent, catalog, e -> { });
      engine.start("n").compose(x -> loop.start()).map(loop).onComplete(ready);
    });
    AgentLoop loop = await(ready.future());
    await(await(loop.accept("m1", "look it up", "tenant-a")).result());
    assertThat(seen).containsExactly("look:tenant-a");
    assertThat(await(JournalPorts.queries(node.journal).sessionInfo(sessionId)).getString("caller")).isEqualTo("tenant-a");

    Throwable refused = failure(loop.accept("m2", "and again", "tenant-b"));
    assertThat(((RatchetException) refused).code()).isEqualTo("CALLER_MISMATCH");
    assertThat(await(node.journal.conversation(sessionId))).hasSize(4).noneMatch(e -> "m2".equals(e.getString("messageId")));
  }

  @Test
  void theSessionKeepsTheNameOfWhoCreatedItAndALaterTurnNeverChangesIt() {
    Node node = new Node();
    SessionEngine engine = node.start();
    await(engine.accept(turn("t1", "look"), "tenant-a", "alice").compose(a -> a.result()));
    await(engine.accept(turn("t2", "look"), "tenant-a", "bea").compose(a -> a.result()));
    await(engine.submit(turn("t3", "look")));
    JsonObject info = await(JournalPorts.queries(node.journal).sessionInfo(sessionId));
    assertThat(info.getString("creator")).isEqualTo("alice");
    assertThat(info.getString("caller")).isEqualTo("tenant-a");

    // the trusted Java API names no creator: the session has none
    String other = "java-" + UUID.randomUUID();
    long epoch = await(node.journal.claim(other, "n").map(ClaimedSession::epoch));
    await(node.journal.submitTurn(TurnSubmission.of(other, epoch, "caller-agent", turn("t1", "look"))
        .withCaller("tenant-a")));
    assertThat(await(JournalPorts.queries(node.journal).sessionInfo(other)).containsKey("creator")).isFalse();
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
