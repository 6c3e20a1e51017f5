package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.journal.JournalPorts;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.RetryPolicy;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.agent.AgentLoop;
import dev.ratchet.runtime.agent.AgentReply;
import dev.ratchet.runtime.agent.ModelResponse;
import dev.ratchet.runtime.agent.ScriptedModel;
import dev.ratchet.runtime.testing.Recorder;
import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import static dev.ratchet.runtime.testing.Await.await;
import static dev.ratchet.runtime.testing.Await.failure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine's input limits: a turn over them is refused whole with a clear code before anything
 * of it is journaled or sent, whatever the entry point; a non-finite number fails its call's
 * validation (rule 2). Each against a real journal on real Redis.
 */
class InputLimitsTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  private static final JsonObject SCHEMA = new JsonObject("""
      {"type":"object","properties":{"orderId":{"type":"string","maxLength":64},"amount":{"type":"number"}},
       "required":["orderId"]}""");

  @RegisterExtension
  final EngineHarness h = new EngineHarness(REDIS);

  private final Recorder provider = new Recorder();

  private FunctionToolSource tools() {
    return FunctionToolSource.create("t")
        .tool(FunctionToolSource.define("look", EffectClass.READ).schema(SCHEMA).handler(inv -> {
          provider.record("look", inv);
          return Future.succeededFuture(new JsonObject().put("ok", true));
        }))
        .tool(FunctionToolSource.define("refund", EffectClass.NON_IDEMPOTENT_WRITE).schema(SCHEMA).handler(inv -> {
          provider.record("refund", inv);
          return Future.succeededFuture(new JsonObject().put("refunded", true));
        }));
  }

  private static ToolCall call(String tool, String orderId) {
    return new ToolCall(tool, new JsonObject().put("orderId", orderId));
  }

  /** Every key of the session with its length (or hash fields): what the journal holds for it. */
  private Map<String, Long> journaled(String sessionId) {
    Response keys = await(h.redis().send(Request.cmd(Command.KEYS).arg(REDIS.keyPrefix() + ":{" + sessionId + "}*")));
    Map<String, Long> out = new TreeMap<>();
    for (Response k : keys) {
      String key = k.toString();
      String type = await(h.redis().send(Request.cmd(Command.TYPE).arg(key))).toString();
      Command size = "stream".equals(type) ? Command.XLEN : "hash".equals(type) ? Command.HLEN
          : "set".equals(type) ? Command.SCARD : "zset".equals(type) ? Command.ZCARD : Command.STRLEN;
      out.put(key, await(h.redis().send(Request.cmd(size).arg(key))).toLong());
    }
    return out;
  }

  private RatchetException refused(Future<?> future) {
    Throwable err = failure(future);
    assertThat(err).isInstanceOf(RatchetException.class);
    return (RatchetException) err;
  }

  @Test
  void aTurnWithMoreCallsThanTheLimitIsRefusedWholeAndNothingIsJournaledOrSent() {
    SessionEngine engine = h.engine(tools(), EngineOptions.DEFAULT.withMaxCallsPerTurn(3));
    Map<String, Long> before = journaled(h.sessionId);
    List<ToolCall> calls = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      calls.add(call("refund", "A-" + i));
    }

    RatchetException err = refused(engine.submit(new Turn("too-many", calls)));

    assertThat(err.code()).isEqualTo("TOO_MANY_CALLS");
    assertThat(err.getMessage()).contains("4 calls").contains("at most 3").contains("engine.maxCallsPerTurn");
    assertThat(journaled(h.sessionId)).isEqualTo(before);
    assertThat(provider.order).isEmpty();
    // at the limit the turn runs
    TurnResult ok = await(engine.submit(new Turn("at-limit", calls.subList(0, 3))));
    assertThat(ok.calls()).extracting(CallResult::outcome).containsOnly(Outcome.SUCCEEDED);
  }

  @Test
  void tenThousandCallsFromOneRequestAreRefusedUnderTheDefaultLimit() {
    SessionEngine engine = h.engine(tools(), EngineOptions.DEFAULT);
    Map<String, Long> before = journaled(h.sessionId);
    List<ToolCall> calls = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      calls.add(call("look", "A-" + i));
    }

    assertThat(refused(engine.submit(new Turn("fan-out", calls))).code()).isEqualTo("TOO_MANY_CALLS");
    assertThat(journaled(h.sessionId)).isEqualTo(before);
    assertThat(provider.order).isEmpty();
  }

  @Test
  void argumentsOverTheLimitRefuseTheTurnNamingTheCallAndNothingIsJournaled() {
    SessionEngine engine = h.engine(tools(), EngineOptions.DEFAULT);
    Map<String, Long> before = journaled(h.sessionId);
    ToolCall huge = new ToolCall("look", new JsonObject().put("orderId", "x".repeat(5 * 1024 * 1024)));

    RatchetException err = refused(engine.submit(Turn.of("huge", call("look", "A-1"), huge)));

    assertThat(err.code()).isEqualTo("ARGUMENTS_TOO_LARGE");
    assertThat(err.getMessage()).contains("call #1").contains("262144").contains("engine.maxArgumentsBytes");
    assertThat(journaled(h.sessionId)).isEqualTo(before);
    assertThat(provider.order).isEmpty();
  }

  @Test
  void theArgumentsLimitCountsEncodedBytesNotCharacters() {
    SessionEngine engine = h.engine(tools(), EngineOptions.DEFAULT.withMaxArgumentsBytes(1000));
    // 400 characters, 1200 bytes of UTF-8
    ToolCall wide = new ToolCall("look", new JsonObject().put("orderId", "€".repeat(400)));

    assertThat(refused(engine.submit(Turn.of("wide", wide))).code()).isEqualTo("ARGUMENTS_TOO_LARGE");
    TurnResult narrow = await(engine.submit(Turn.of("narrow", call("look", "x".repeat(60)))));
    assertThat(narrow.calls().get(0).outcome()).isEqualTo(Outcome.SUCCEEDED);
  }

  @Test
  void turnIdsAndModelCallIdsOutsideTheSafeAlphabetAreRefusedAndNothingIsJournaled() {
    SessionEngine engine = h.engine(tools(), EngineOptions.DEFAULT);
    Map<String, Long> before = journaled(h.sessionId);
    String[] bad = {"t1\nforged line", "t1\u001b[2J", "x".repeat(129), "with space", "a/b", "caf\u00e9", "t\u0000",
        "\u202eevil"};
    for (String id : bad) {
      RatchetException err = refused(engine.submit(Turn.of(id, call("look", "A-1"))));
      assertThat(err.code()).as(id).isEqualTo("INVALID_ID");
      assertThat(err.getMessage()).as(id).contains("turnId").doesNotContain(id);
      RatchetException byCall = refused(engine.submit(Turn.of("t-ok",
          new ToolCall("look", new JsonObject().put("orderId", "A-1"), id))));
      assertThat(byCall.code()).as(id).isEqualTo("INVALID_ID");
      assertThat(byCall.getMessage()).as(id).contains("modelCallId");
    }
    RatchetException name = refused(engine.submit(Turn.of("t-name", call("look\n[ok] refund", "A-1"))));
    assertThat(name.code()).isEqualTo("INVALID_ID");
    assertThat(journaled(h.sessionId)).isEqualTo(before);
    assertThat(provider.order).isEmpty();
  }

  @Test
  void idsThatProvidersFrameworksAndTheAgentLoopUseAreAccepted() {
    SessionEngine engine = h.engine(tools(), EngineOptions.DEFAULT);
    String[] good = {"agent-step-1", "demo-1", "call_abc123XYZ", "toolu_01A09q90qw90lq917835lq9", UUID.randomUUID().toString(),
        "functions.look:0", "run-1+retry@node_2", "x".repeat(128)};
    for (String id : good) {
      TurnResult r = await(engine.submit(Turn.of(id, new ToolCall("look", new JsonObject().put("orderId", "A-1"), id))));
      assertThat(r.calls().get(0).outcome()).as(id).isEqualTo(Outcome.SUCCEEDED);
    }
  }

  @Test
  void aSessionIdOutsideTheSafeAlphabetIsRefusedBeforeTheSessionIsClaimed() {
    String sessionId = "s-" + UUID.randomUUID() + "\n";
    ToolCatalog catalog = await(ToolCatalog.resolve(h.vertx, AgentDefinition.builder("test-agent").toolSource(tools())
        .build()));
    SessionEngine engine = new SessionEngine(h.vertx, h.journal, sessionId, catalog, EngineOptions.DEFAULT, null);

    RatchetException err = refused(engine.start("test-node"));

    assertThat(err.code()).isEqualTo("INVALID_ID");
    assertThat(err.getMessage()).contains("sessionId").contains("U+000A");
    assertThat(journaled(sessionId)).isEmpty();
  }

  @Test
  void aNumberThatIsNotFiniteFailsItsCallsValidationAndIsNeverSent() {
    SessionEngine engine = h.engine(tools(), EngineOptions.DEFAULT);
    JsonObject infinite = new JsonObject("{\"orderId\":\"A-1\",\"amount\":1e400}");
    JsonObject nested = new JsonObject("{\"orderId\":\"A-2\",\"lines\":[{\"qty\":-1e400}]}");

    TurnResult r = await(engine.submit(Turn.of("inf", new ToolCall("refund", infinite), new ToolCall("look", nested),
        call("look", "A-3"))));

    CallResult amount = r.calls().get(0);
    assertThat(amount.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(amount.error()).startsWith(CallResult.NOT_RUN_PREFIX).contains("field 'amount'")
        .contains("not a finite number");
    assertThat(r.calls().get(1).outcome()).isEqualTo(Outcome.FAILED);
    assertThat(r.calls().get(1).error()).contains("field 'lines.0.qty'").contains("not a finite number");
    assertThat(r.calls().get(2).outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(provider.order).containsExactly("look");
  }

  @Test
  void aTurnOfTenThousandCallsReadsBackFromTheJournal() {
    SessionEngine engine = h.engine(tools(), EngineOptions.DEFAULT.withMaxCallsPerTurn(10_000));
    List<ToolCall> calls = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      calls.add(call("look", "A-" + i));
    }
    await(engine.submit(new Turn("big", calls)));

    TurnResult read = await(h.journal.turnResult(h.sessionId, "big"));

    assertThat(read.calls()).hasSize(10_000);
    assertThat(read.calls().get(9_999).outcome()).isEqualTo(Outcome.SUCCEEDED);
    // and the journal answers the next read as well: the big one did not wedge the client
    assertThat(await(h.journal.turnResult(h.sessionId, "big")).calls()).hasSize(10_000);
  }

  @Test
  void aSessionWithTenThousandCallsInFlightResumesOnANewOwner() {
    FunctionToolSource hanging = FunctionToolSource.create("t")
        .tool(FunctionToolSource.define("look", EffectClass.READ).schema(SCHEMA)
            .handler(inv -> io.vertx.core.Promise.promise().future()));
    SessionEngine first = h.engine(hanging, EngineOptions.DEFAULT.withMaxCallsPerTurn(10_000));
    List<ToolCall> calls = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      calls.add(call("look", "A-" + i));
    }
    first.submit(new Turn("big", calls));
    dev.ratchet.runtime.testing.Await.until(
        () -> journaled(h.sessionId).containsKey(REDIS.keyPrefix() + ":{" + h.sessionId + "}:turn:big"), 30);

    // the new owner reads the state of every call in flight when it claims the session
    SessionEngine second = h.engine(hanging, EngineOptions.DEFAULT.withMaxCallsPerTurn(10_000));

    assertThat(second).isNotNull();
    assertThat(await(JournalPorts.queries(h.journal).sessionInfo(h.sessionId)).getLong("epoch")).isEqualTo(2L);
  }

  @Test
  void theLimitsAreReadFromTheEngineSettingsWithTheDocumentedDefaults() {
    EngineOptions defaults = EngineOptions.fromJson(new JsonObject());
    assertThat(defaults.maxCallsPerTurn()).isEqualTo(64);
    assertThat(defaults.maxArgumentsBytes()).isEqualTo(262_144);
    EngineOptions set = EngineOptions.fromJson(new JsonObject().put("maxCallsPerTurn", 5).put("maxArgumentsBytes", 1000));
    assertThat(set.maxCallsPerTurn()).isEqualTo(5);
    assertThat(set.maxArgumentsBytes()).isEqualTo(1000);
  }

  @Test
  void aModelResponseOverTheLimitsIsAFailedModelAttemptAndIsNeverRecorded() {
    List<ToolCall> calls = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      calls.add(new ToolCall("look", new JsonObject().put("orderId", "A-" + i), "c" + i));
    }
    ScriptedModel model = ScriptedModel.of(ModelResponse.toolCalls(calls.toArray(new ToolCall[0])));
    AgentDefinition agent = AgentDefinition.builder("loop-agent").toolSource(tools()).model(model).maxTurns(3)
        .modelRetry(RetryPolicy.NONE).modelTimeout(Duration.ofSeconds(10)).build();
    ToolCatalog catalog = await(ToolCatalog.resolve(h.vertx, agent));
    io.vertx.core.Promise<AgentLoop> ready = io.vertx.core.Promise.promise();
    h.vertx.getOrCreateContext().runOnContext(v -> {
      SessionEngine engine = new SessionEngine(h.vertx, h.journal, h.sessionId, catalog,
          EngineOptions.DEFAULT.withMaxCallsPerTurn(4), null);
      AgentLoop loop = new AgentLoop(h.vertx, h.journal, engine, agent, catalog, null);
      engine.start("test-node").compose(x -> loop.start()).map(loop).onComplete(ready);
    });
    AgentLoop loop = await(ready.future());

    AgentReply reply = await(await(loop.accept("m-1", "refund everything")).result());

    assertThat(reply.status()).isEqualTo(AgentReply.MODEL_FAILED);
    assertThat(reply.error()).contains("TOO_MANY_CALLS").contains("at most 4");
    assertThat(provider.order).isEmpty();
    List<String> types = await(JournalPorts.queries(h.journal).events(h.sessionId, null,
        100)).stream().map(e -> e.getString("type")).toList();
    assertThat(types).doesNotContain("model.response", "turn.submitted");
    assertThat(refused(loop.accept("m\n2", "again")).code()).isEqualTo("INVALID_ID");
  }
}
