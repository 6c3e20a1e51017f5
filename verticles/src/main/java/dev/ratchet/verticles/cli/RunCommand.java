package dev.ratchet.verticles.cli;

import dev.ratchet.verticles.Ratchet;
import dev.ratchet.verticles.RatchetConfig;
import dev.ratchet.verticles.RatchetOptions;
import dev.ratchet.verticles.demo.DemoShop;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/** Starts the runtime: journal (embedded Redis when none is configured), session manager, APIs and the demo agent. */
@CommandLine.Command(name = "run", description = "Start the runtime (the default command).")
public final class RunCommand implements Callable<Integer> {

  @CommandLine.Option(names = "--config", description = "configuration file (default: ${DEFAULT-VALUE})",
      defaultValue = "conf/ratchet.json")
  Path config;

  @CommandLine.Option(names = "--no-demo", description = "do not register the demo agent")
  boolean noDemo;

  @Override
  public Integer call() throws Exception {
    JsonObject cfg = RatchetConfig.load(config, System.getenv());
    RedisChoice redis = RedisChoice.from(cfg);
    Vertx vertx = Vertx.vertx();
    Ratchet ratchet;
    try {
      ratchet = Ratchet.deploy(vertx, RatchetOptions.fromConfig(cfg).redisUrl(redis.url)).await();
      if (!noDemo) {
        ratchet.register(new DemoShop().agent()).await();
      }
    } catch (Exception e) {
      System.err.println("Ratchet could not start: " + e.getMessage());
      vertx.close();
      redis.close();
      return 1;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        ratchet.close().await();
        vertx.close().await();
      } catch (Exception e) {
        // shutting down anyway
      } finally {
        redis.close();
        stopped.countDown();
      }
    }));
    System.out.println("Ratchet is running (node " + RatchetOptions.fromConfig(cfg).nodeId() + ", agents "
        + ratchet.agents() + "). Stop with Ctrl-C; turns in flight resume on the next start.");
    stopped.await();
    return 0;
  }
}
