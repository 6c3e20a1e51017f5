package dev.ratchet.verticles.http.impl;

import dev.ratchet.runtime.EventType;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.StepEvents;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryContext;
import io.vertx.core.json.JsonObject;
import io.vertx.micrometer.backends.BackendRegistries;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Ratchet's Prometheus metrics. Uses the Vert.x Micrometer registry when Vert.x was started with
 * Prometheus metrics enabled (then Vert.x's own HTTP, event-bus and pool metrics are included),
 * else a registry of its own.
 * <p>Calls and turns are counted from the step events every session publishes on this node
 * (seen by an outbound event-bus interceptor), so turns submitted from Java or the event bus count
 * too, not only those that came over HTTP.
 */
public final class RatchetMetrics {

  private static final int MAX_OPEN_TURNS = 10_000;

  private final Vertx vertx;
  private final PrometheusMeterRegistry registry;
  private final AtomicLong pending = new AtomicLong();
  private final Timer callLatency;
  private final Timer turnLatency;
  // submittedAt of turns still running, keyed "session\nturn"; bounded so a leak cannot grow it
  private final Map<String, Long> openTurns = new LinkedHashMap<>(16, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
      return size() > MAX_OPEN_TURNS;
    }
  };
  private final Handler<DeliveryContext<Object>> interceptor = this::intercept;
  /** Ends this interceptor's count as a listener of every session's step events. */
  private Runnable hearing = () -> { };
  private final RatchetNode ratchet;
  private final AtomicLong lastForkMicros = new AtomicLong();
  private final AtomicLong aofRewriting = new AtomicLong();
  private final AtomicLong redisUsedMemory = new AtomicLong();
  private long refresh;

  public RatchetMetrics(Vertx vertx, RatchetNode ratchet) {
    this.vertx = vertx;
    this.ratchet = ratchet;
    MeterRegistry shared = BackendRegistries.getDefaultNow();
    this.registry = shared instanceof PrometheusMeterRegistry ? (PrometheusMeterRegistry) shared
        : new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    this.callLatency = Timer.builder("ratchet.call.duration").description("Time from a call's start to its outcome")
        .publishPercentileHistogram().register(registry);
    this.turnLatency = Timer.builder("ratchet.turn.duration").description("Time from a turn's submission to its results")
        .publishPercentileHistogram().register(registry);
    Gauge.builder("ratchet.approvals.pending", pending, AtomicLong::get)
        .description("Writes waiting for a person's decision").register(registry);
    Gauge.builder("ratchet.sessions.active", ratchet, r -> r.activeSessions())
        .description("Session verticles deployed on this node").register(registry);
    Gauge.builder("ratchet.cluster.members", ratchet, r -> r.cluster().members().size())
        .description("Live members of this node's cluster (1 when not clustered)").register(registry);
    Gauge.builder("ratchet.cluster.takeovers", ratchet, r -> r.cluster().takeovers())
        .description("Sessions this node took over from cluster members that left").register(registry);
    // a fork stops Redis, and every turn with it, for longer the more the journal holds: the figures
    // an operator needs to tell that from the runtime's own latency
    Gauge.builder("ratchet.journal.redis.last.fork", lastForkMicros, micros -> micros.get() / 1e6).baseUnit("seconds")
        .description("How long the journal's Redis was stopped by its latest fork (AOF rewrite or snapshot)")
        .register(registry);
    Gauge.builder("ratchet.journal.redis.aof.rewriting", aofRewriting, AtomicLong::get)
        .description("1 while the journal's Redis is rewriting its AOF").register(registry);
    Gauge.builder("ratchet.journal.redis.used.memory", redisUsedMemory, AtomicLong::get).baseUnit("bytes")
        .description("Memory the journal's Redis holds, which sets how long a fork takes").register(registry);
    vertx.eventBus().addOutboundInterceptor(interceptor);
    hearing = StepEvents.publishAll(vertx);
    refresh = vertx.setPeriodic(5_000, t -> {
      ratchet.pendingApprovals().onSuccess(l -> pending.set(l.size()));
      refreshJournalRedis();
    });
    ratchet.pendingApprovals().onSuccess(l -> pending.set(l.size()));
    refreshJournalRedis();
  }

  /**
   * Reads the journal's Redis figures from its {@code INFO}; done every 5 s. A failed read keeps the
   * figures read before (the health check is what reports an unreachable Redis).
   */
  public Future<Void> refreshJournalRedis() {
    return ratchet.diagnostics().info("default").onSuccess(info -> {
      lastForkMicros.set(number(info.get("latest_fork_usec")));
      aofRewriting.set(number(info.get("aof_rewrite_in_progress")));
      redisUsedMemory.set(number(info.get("used_memory")));
    }).<Void>mapEmpty().recover(err -> Future.succeededFuture());
  }

  private static long number(String value) {
    try {
      return value == null ? 0 : Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  public void close() {
    vertx.cancelTimer(refresh);
    vertx.eventBus().removeOutboundInterceptor(interceptor);
    hearing.run();
  }

  public String scrape() {
    return registry.scrape();
  }

  public void pendingApprovals(int count) {
    pending.set(count);
  }

  /** Latency of one journal append made for an HTTP request ({@code op}: submit, decide, reconcile, health). */
  public void journalAppend(String op, long nanos) {
    Timer.builder("ratchet.journal.append.duration").description("Latency of journal appends made by the HTTP API")
        .tag("op", op).publishPercentileHistogram().register(registry).record(nanos, TimeUnit.NANOSECONDS);
  }

  private void intercept(DeliveryContext<Object> ctx) {
    try {
      String address = ctx.message().address();
      if (address.startsWith("ratchet.session.") && address.endsWith(".events")
          && ctx.message().body() instanceof JsonObject) {
        observe((JsonObject) ctx.message().body());
      }
    } catch (RuntimeException e) {
      // metrics must never stop an event
    }
    ctx.next();
  }

  private void observe(JsonObject event) {
    EventType type = EventType.ofWireName(event.getString("type"));
    if (type == null) {
      return;
    }
    JsonObject data = event.getJsonObject("data", new JsonObject());
    String turnKey = event.getString("sessionId") + "\n" + event.getString("turnId");
    switch (type) {
      case CALL_COMPLETED:
        Counter.builder("ratchet.calls").description("Calls by outcome")
            .tag("outcome", data.getString("outcome", "unknown"))
            .tag("effect_class", data.getString("effectClass", "unknown"))
            .tag("skipped", String.valueOf(data.getBoolean("skipped", false)))
            .register(registry).increment();
        if (!data.getBoolean("skipped", false)) {
          callLatency.record(Duration.ofMillis(data.getLong("durationMs", 0L)));
        }
        break;
      case TURN_SUBMITTED:
        synchronized (openTurns) {
          openTurns.put(turnKey, event.getLong("at", System.currentTimeMillis()));
        }
        break;
      case TURN_COMPLETED:
        Long submitted;
        synchronized (openTurns) {
          submitted = openTurns.remove(turnKey);
        }
        if (submitted != null) {
          turnLatency.record(Duration.ofMillis(Math.max(0, event.getLong("at", 0L) - submitted)));
        }
        break;
      case APPROVAL_REQUESTED:
        pending.incrementAndGet();
        break;
      case APPROVAL_DECIDED:
        pending.updateAndGet(n -> Math.max(0, n - 1));
        break;
      default:
        break;
    }
  }
}
