package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RetryPolicy;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolNotSentException;
import dev.ratchet.runtime.ToolResult;
import dev.ratchet.runtime.ToolSource;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.runtime.testing.Await;
import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the journal knows about a write's attempts across a restart: a write that never got its
 * connection was not sent (J2), and an idempotent write's retry budget is not renewed by a
 * restart (J8). A restart is a second engine, on its own Vert.x, over the same journal.
 */
class AttemptJournalRecoveryTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  @RegisterExtension
  final RedisNodes runtimes = new RedisNodes(REDIS);

  private String sessionId;

  @BeforeEach
  void setUp() {
    sessionId = "s-" + UUID.randomUUID();
  }

  private record Node(Vertx vertx, RedisJournal journal, SessionEngine engine) {
  }

  private Node start(String name, Tool tool) {
    RedisNodes.Node runtime = runtimes.open();
    ToolSource source = new ToolSource() {
      @Override
      public String name() {
        return "t";
      }

      @Override
      public Future<List<Tool>> tools(Vertx v) {
        return Future.succeededFuture(List.of(tool));
      }
    };
    SessionEngine engine = runtime.engine(sessionId, name, AgentDefinition.builder("test-agent").toolSource(source)
        .build(), null);
    return new Node(runtime.vertx(), runtime.journal(), engine);
  }

  /** A write tool whose attempts are answered by {@code answer}, recording every one the provider receives. */
  private static class WriteTool implements Tool {
    final EffectClass effectClass;
    final boolean announces;
    final Function<ToolInvocation, Future<ToolResult>> answer;
    final List<ToolInvocation> received = new CopyOnWriteArrayList<>();

    WriteTool(EffectClass effectClass, boolean announces, Function<ToolInvocation, Future<ToolResult>> answer) {
      this.effectClass = effectClass;
      this.announces = announces;
      this.answer = answer;
    }

    @Override
    public String name() {
      return "write";
    }

    @Override
    public String description() {
      return "a write";
    }

    @Override
    public JsonObject inputSchema() {
      return new JsonObject().put("type", "object");
    }

    @Override
    public EffectClass effectClass() {
      return effectClass;
    }

    @Override
    public RetryPolicy retryPolicy() {
      return new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(1), 1.0);
    }

    @Override
    public boolean announcesSending() {
      return announces;
    }

    @Override
    public Future<ToolResult> invoke(ToolInvocation invocation) {
      return answer.apply(invocation);
    }
  }

  private static Turn turn() {
    return Turn.of("t1", new ToolCall("write", new JsonObject().put("orderId", "1")));
  }

  @Test
  void anIdempotentWriteDoesNotGetAFreshRetryBudgetAfterARestart() {
    AtomicInteger sent = new AtomicInteger();
    Node first = start("node-1", new WriteTool(EffectClass.IDEMPOTENT_WRITE, false, inv -> {
      sent.incrementAndGet();
      // the provider answers 500 to the first attempt; the runtime dies during the second
      return inv.attempt() == 1 ? Future.succeededFuture(ToolResult.uncertain("HTTP 500"))
          : Promise.<ToolResult>promise().future();
    }));
    first.engine().submit(turn());
    Await.until(() -> sent.get() == 2, 10);
    first.vertx().close();

    Node second = start("node-2", new WriteTool(EffectClass.IDEMPOTENT_WRITE, false, inv -> {
      sent.incrementAndGet();
      return Future.succeededFuture(ToolResult.uncertain("HTTP 500"));
    }));
    CallResult r = await(second.engine().submit(turn())).call(0);

    assertThat(sent).hasValue(3);
    assertThat(r.attempts()).isEqualTo(3);
    assertThat(r.outcome()).isEqualTo(Outcome.OUTCOME_UNKNOWN);
    assertThat(r.error()).startsWith("failed after 3 attempts");
  }

  @Test
  void attemptsAreNumberedTruthfullyAfterARecoveryResend() {
    List<ToolInvocation> before = new CopyOnWriteArrayList<>();
    List<ToolInvocation> after = new CopyOnWriteArrayList<>();
    Node first = start("node-1", new WriteTool(EffectClass.IDEMPOTENT_WRITE, false, inv -> {
      before.add(inv);
      return Promise.<ToolResult>promise().future();
    }));
    first.engine().submit(turn());
    Await.until(() -> before.size() == 1, 10);
    first.vertx().close();

    CallResult r = await(start("node-2", new WriteTool(EffectClass.IDEMPOTENT_WRITE, false, inv -> {
      after.add(inv);
      return Future.succeededFuture(ToolResult.success(new JsonObject()));
    })).engine().submit(turn())).call(0);

    assertThat(before).extracting(ToolInvocation::attempt).containsExactly(1);
    assertThat(after).extracting(ToolInvocation::attempt).containsExactly(2);
    assertThat(after.get(0).idempotencyKey()).isEqualTo(before.get(0).idempotencyKey());
    assertThat(r.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(r.attempts()).isEqualTo(2);
  }

  @Test
  void anOutcomeUnknownCallShowsHowLongItWasInFlight() throws InterruptedException {
    AtomicInteger sent = new AtomicInteger();
    Node first = start("node-1", new WriteTool(EffectClass.NON_IDEMPOTENT_WRITE, false, inv -> {
      sent.incrementAndGet();
      return Promise.<ToolResult>promise().future();
    }));
    first.engine().submit(turn());
    Await.until(() -> sent.get() == 1, 10);
    Thread.sleep(600);
    first.vertx().close();

    CallResult r = await(start("node-2", new WriteTool(EffectClass.NON_IDEMPOTENT_WRITE, false,
        inv -> Future.succeededFuture(ToolResult.success(new JsonObject())))).engine().submit(turn())).call(0);

    assertThat(r.outcome()).isEqualTo(Outcome.OUTCOME_UNKNOWN);
    assertThat(r.attempts()).isEqualTo(1);
    assertThat(r.durationMillis()).isGreaterThanOrEqualTo(600);
  }

  @Test
  void anIdempotentWriteWhoseWholeBudgetWasSentBeforeARestartIsNotSentAgain() {
    AtomicInteger sent = new AtomicInteger();
    Node first = start("node-1", new WriteTool(EffectClass.IDEMPOTENT_WRITE, false, inv -> {
      sent.incrementAndGet();
      return inv.attempt() < 3 ? Future.succeededFuture(ToolResult.uncertain("HTTP 500"))
          : Promise.<ToolResult>promise().future();
    }));
    first.engine().submit(turn());
    Await.until(() -> sent.get() == 3, 10);
    first.vertx().close();

    Node second = start("node-2", new WriteTool(EffectClass.IDEMPOTENT_WRITE, false, inv -> {
      sent.incrementAndGet();
      return Future.succeededFuture(ToolResult.success(new JsonObject()));
    }));
    CallResult r = await(second.engine().submit(turn())).call(0);

    assertThat(sent).hasValue(3);
    assertThat(r.outcome()).isEqualTo(Outcome.OUTCOME_UNKNOWN);
    assertThat(r.attempts()).isEqualTo(3);
    assertThat(r.error()).contains("sent 3 times");
  }

  @Test
  void aWriteStillWaitingForAConnectionAtACrashIsNotStartedAndRunsOnceAfterRestart() {
    Promise<Void> connection = Promise.promise();
    List<ToolInvocation> waiting = new CopyOnWriteArrayList<>();
    Node first = start("node-1", new WriteTool(EffectClass.NON_IDEMPOTENT_WRITE, true, inv -> {
      waiting.add(inv);
      // no connection is ever lent before the crash
      return connection.future().compose(v -> inv.sending()).map(v -> ToolResult.success(new JsonObject()));
    }));
    first.engine().submit(turn());
    Await.until(() -> waiting.size() == 1, 10);
    String state = await(first.journal().callState(sessionId, waiting.get(0).callId())).state().wireName();
    first.vertx().close();

    WriteTool again = new WriteTool(EffectClass.NON_IDEMPOTENT_WRITE, true, inv -> inv.sending()
        .map(v -> ToolResult.success(new JsonObject().put("sent", true))));
    Node second = start("node-2", again);
    CallResult r = await(second.engine().submit(turn())).call(0);

    assertThat(state).isEqualTo("new");
    assertThat(r.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(r.result()).isEqualTo(new JsonObject().put("sent", true));
    assertThat(r.attempts()).isEqualTo(1);
  }

  @Test
  void aWriteThatNeverGotAConnectionBeforeItsTimeoutWasNotSent() {
    Node node = start("node-1", new WriteTool(EffectClass.NON_IDEMPOTENT_WRITE, true,
        inv -> Promise.<ToolResult>promise().future()) {
      @Override
      public Duration timeout() {
        return Duration.ofMillis(200);
      }
    });
    CallResult r = await(node.engine().submit(turn())).call(0);

    assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(r.error()).startsWith(CallResult.NOT_RUN_PREFIX).contains("before its request was sent");
  }

  @Test
  void aWriteThatGetsItsConnectionAfterTheSessionStoppedIsNotSent() {
    Promise<Void> connection = Promise.promise();
    AtomicInteger written = new AtomicInteger();
    AtomicInteger invoked = new AtomicInteger();
    List<Throwable> refused = new CopyOnWriteArrayList<>();
    Node node = start("node-1", new WriteTool(EffectClass.NON_IDEMPOTENT_WRITE, true, inv -> invoked
        .incrementAndGet() < 0 ? null : connection.future().compose(v -> inv.sending()).compose(v -> inv.sending()).map(v -> {
          written.incrementAndGet();
          return ToolResult.success(new JsonObject());
        }).onFailure(refused::add)));
    node.engine().submit(turn());
    Await.until(() -> invoked.get() == 1, 10);
    await(node.engine().stop());
    connection.complete();

    Await.until(() -> refused.size() == 1, 10);
    assertThat(written).hasValue(0);
    assertThat(refused.get(0)).isInstanceOf(ToolNotSentException.class);
  }
}
