package dev.ratchet.verticles.cli;

import dev.ratchet.verticles.Ratchet;
import dev.ratchet.verticles.RatchetConfig;
import dev.ratchet.verticles.RatchetOptions;
import dev.ratchet.verticles.demo.DemoShop;
import dev.ratchet.verticles.http.HttpOptions;
import dev.ratchet.verticles.http.HttpServerVerticle;
import dev.ratchet.verticles.http.PasswordHash;
import dev.ratchet.verticles.http.Role;
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
    HttpOptions http = HttpOptions.fromConfig(cfg.getJsonObject("http"));
    String generated = null;
    if (http.users().isEmpty()) {
      // a fresh install has nobody to log in as: make one approver for this run
      String password = System.getenv("RATCHET_ADMIN_PASSWORD");
      if (password == null || password.isBlank()) {
        password = generated = PasswordHash.newToken().substring(0, 16);
      }
      http.user("admin", Role.APPROVER, PasswordHash.hashPassword(password.toCharArray()));
    }
    HttpServerVerticle server = new HttpServerVerticle(ratchet, http);
    try {
      vertx.deployVerticle(server).await();
    } catch (Exception e) {
      System.err.println("Ratchet could not serve HTTP on port " + http.port() + ": " + e.getMessage()
          + " (set RATCHET_HTTP_PORT to use another port)");
      ratchet.close();
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
    System.out.println("Ratchet is running (agents " + ratchet.agents() + ").");
    System.out.println("  Dashboard: http://localhost:" + server.actualPort() + "/");
    if (http.users().size() == 1 && "admin".equals(http.users().get(0).name())) {
      System.out.println("  Log in as admin with password " + (generated != null ? generated
          : "from RATCHET_ADMIN_PASSWORD") + " (configure http.users to choose your own)");
    }
    System.out.println("  HTTP API: docs/HTTP-API.md. Stop with Ctrl-C; turns in flight resume on the next start.");
    stopped.await();
    return 0;
  }
}
