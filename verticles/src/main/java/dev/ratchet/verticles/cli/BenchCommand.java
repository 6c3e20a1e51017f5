package dev.ratchet.verticles.cli;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.IdempotencyKey;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.redis.RedisServerProcess;
import dev.ratchet.verticles.Ratchet;
import dev.ratchet.verticles.RatchetOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Many sessions submitting turns of 3 reads + 2 writes against in-process no-op tools; prints
 * durable tool calls/s, turn latency, Redis commands per call, and the same tools called directly.
 */
@CommandLine.Command(name = "bench", description = "Measure durable tool calls per second and turn latency.")
public final class BenchCommand implements Callable<Integer> {

  @CommandLine.Option(names = "--sessions", defaultValue = "16", description = "concurrent sessions (${DEFAULT-VALUE})")
  int sessions;

  @CommandLine.Option(names = "--seconds", defaultValue = "20", description = "measured seconds (${DEFAULT-VALUE})")
  int seconds;

  @CommandLine.Option(names = "--warmup", defaultValue = "5", description = "warm-up seconds (${DEFAULT-VALUE})")
  int warmup;

  @CommandLine.Option(names = "--fsync", defaultValue = "everysec",
      description = "appendfsync of the embedded Redis: always, everysec, no (${DEFAULT-VALUE})")
  String fsync;

  @CommandLine.Option(names = "--redis-url", description = "use this Redis instead of starting one")
  String redisUrl;

  private static final JsonObject RESULT = new JsonObject().put("status", "ok")
      .put("payload", "x".repeat(80));

  @Override
  public Integer call() throws Exception {
    RedisServerProcess own = null;
    String url = redisUrl;
    if (url == null) {
      own = RedisServerProcess.start(0, Files.createTempDirectory("ratchet-bench"), fsync);
      url = own.url();
    }
    Vertx vertx = Vertx.vertx();
    try {
      Ratchet ratchet = Ratchet.deploy(vertx, RatchetOptions.create().redisUrl(url)
          .keyPrefix("bench-" + UUID.randomUUID().toString().substring(0, 6)).maxPoolSize(32)).await();
      FunctionToolSource tools = FunctionToolSource.create("bench");
      for (String r : List.of("read_a", "read_b", "read_c")) {
        tools.tool(FunctionToolSource.define(r, EffectClass.READ).handler(inv -> Future.succeededFuture(RESULT)));
      }
      tools.tool(FunctionToolSource.define("write_safe", EffectClass.IDEMPOTENT_WRITE)
          .handler(inv -> Future.succeededFuture(RESULT)));
      tools.tool(FunctionToolSource.define("write_once", EffectClass.NON_IDEMPOTENT_WRITE)
          .handler(inv -> Future.succeededFuture(RESULT)));
      ratchet.register(AgentDefinition.builder("bench").toolSource(tools).build()).await();

      System.out.printf("bench: %d sessions, turns of 3 reads + 2 writes, %d s warm-up + %d s, Redis %s%n",
          sessions, warmup, seconds, own == null ? url : "embedded (appendfsync " + fsync + ")");
      run(vertx, ratchet, warmup * 1000L, "warm");
      Map<String, Long> before = ratchet.journal().commandStats().await();
      Result r = run(vertx, ratchet, seconds * 1000L, "run");
      Map<String, Long> after = ratchet.journal().commandStats().await();
      long commands = 0;
      for (Map.Entry<String, Long> e : after.entrySet()) {
        if (!e.getKey().equals("info")) {
          commands += e.getValue() - before.getOrDefault(e.getKey(), 0L);
        }
      }
      double direct = direct(vertx, tools, 3000);
      long calls = r.turns * 5;
      double callsPerSec = calls * 1000.0 / r.millis;
      double perCall = calls == 0 ? 0 : (double) commands / calls;
      System.out.printf("durable tool calls/s : %,.0f (%,d turns in %d ms)%n", callsPerSec, r.turns, r.millis);
      System.out.printf("turn latency         : p50 %.2f ms, p99 %.2f ms, p999 %.2f ms%n", r.p(50), r.p(99), r.p(99.9));
      System.out.printf("redis commands/call  : %.2f%n", perCall);
      System.out.printf("direct tool calls/s  : %,.0f (same tools, no journal)%n", direct);
      JsonObject json = new JsonObject().put("sessions", sessions).put("fsync", own == null ? "external" : fsync)
          .put("callsPerSec", Math.round(callsPerSec)).put("turnP50Ms", round(r.p(50)))
          .put("turnP99Ms", round(r.p(99))).put("turnP999Ms", round(r.p(99.9)))
          .put("redisCommandsPerCall", round(perCall)).put("directCallsPerSec", Math.round(direct));
      System.out.println(json.encode());
      ratchet.close().await();
      return 0;
    } finally {
      vertx.close().await();
      if (own != null) {
        own.close();
      }
    }
  }

  private static double round(double v) {
    return Math.round(v * 100) / 100.0;
  }

  private record Result(long turns, long millis, List<Double> latencies) {
    double p(double pct) {
      if (latencies.isEmpty()) {
        return 0;
      }
      int i = (int) Math.ceil(pct / 100.0 * latencies.size()) - 1;
      return latencies.get(Math.max(0, Math.min(latencies.size() - 1, i)));
    }
  }

  private Result run(Vertx vertx, Ratchet ratchet, long millis, String phase) {
    long end = System.currentTimeMillis() + millis;
    AtomicLong turns = new AtomicLong();
    List<Double> latencies = Collections.synchronizedList(new ArrayList<>());
    List<Future<Void>> loops = new ArrayList<>();
    String run = UUID.randomUUID().toString().substring(0, 6);
    long start = System.currentTimeMillis();
    for (int s = 0; s < sessions; s++) {
      Promise<Void> done = Promise.promise();
      loop(ratchet, "bench-" + run + "-" + s, phase, 0, end, turns, latencies, done);
      loops.add(done.future());
    }
    Future.join(loops).await();
    long elapsed = System.currentTimeMillis() - start;
    List<Double> sorted = new ArrayList<>(latencies);
    Collections.sort(sorted);
    return new Result(turns.get(), elapsed, sorted);
  }

  private void loop(Ratchet ratchet, String session, String phase, int n, long end, AtomicLong turns,
                    List<Double> latencies, Promise<Void> done) {
    if (System.currentTimeMillis() >= end) {
      done.complete();
      return;
    }
    Turn turn = new Turn(phase + "-" + n, List.of(new ToolCall("read_a", null), new ToolCall("read_b", null),
        new ToolCall("read_c", null), new ToolCall("write_safe", null), new ToolCall("write_once", null)));
    long t0 = System.nanoTime();
    ratchet.submit("bench", session, turn).onComplete(ar -> {
      if (ar.failed()) {
        done.fail(ar.cause());
        return;
      }
      latencies.add((System.nanoTime() - t0) / 1e6);
      turns.incrementAndGet();
      loop(ratchet, session, phase, n + 1, end, turns, latencies, done);
    });
  }

  private static double direct(Vertx vertx, FunctionToolSource source, long millis) {
    List<Tool> tools = source.tools(vertx).result();
    long end = System.currentTimeMillis() + millis;
    long calls = 0;
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
  }
}
