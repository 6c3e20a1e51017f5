package dev.ratchet.verticles.cli;

import dev.ratchet.connectors.Connections;
import dev.ratchet.runtime.agent.ChatModel;
import dev.ratchet.verticles.Ratchet;
import dev.ratchet.verticles.RatchetConfig;
import dev.ratchet.verticles.RatchetOptions;
import dev.ratchet.verticles.demo.DemoModel;
import dev.ratchet.verticles.demo.DemoShop;
import dev.ratchet.verticles.http.HttpOptions;
import dev.ratchet.verticles.http.HttpServerVerticle;
import dev.ratchet.verticles.http.PasswordHash;
import dev.ratchet.verticles.http.Role;
import dev.ratchet.verticles.impl.TransportChoice;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * Starts the runtime: journal (embedded Redis when none is configured), session manager, the HTTP
 * API and dashboard, and the order-support demo agent with its shop service.
 */
@CommandLine.Command(name = "run", mixinStandardHelpOptions = true, description = "Start the runtime (the default command).")
public final class RunCommand implements Callable<Integer> {

  @CommandLine.Option(names = "--config", description = "configuration file (default: ${DEFAULT-VALUE})",
      defaultValue = "conf/ratchet.json")
  Path config;

  @CommandLine.Option(names = "--no-demo", description = "do not start the demo agent and its shop")
  boolean noDemo;

  @Override
  public Integer call() throws Exception {
    Map<String, String> env = System.getenv();
    JsonObject cfg = RatchetConfig.load(config, env);
    TransportChoice transport;
    try {
      transport = TransportChoice.of(cfg.getJsonObject("node", new JsonObject()).getString("transport"));
    } catch (IllegalArgumentException e) {
      System.err.println("Ratchet could not start: node.transport: " + e.getMessage());
      return 1;
    }
    RedisChoice redis;
    try {
      redis = RedisChoice.from(cfg);
    } catch (IOException | IllegalArgumentException e) {
      System.err.println("Ratchet could not start its embedded Redis: " + e.getMessage());
      return 1;
    }
    Vertx vertx = transport.vertx();
    Ratchet ratchet;
    DemoShop demo = null;
    ChatModel model = null;
    try {
      ratchet = Ratchet.deploy(vertx, RatchetOptions.fromConfig(cfg).redisUrl(redis.url)).await();
      if (!noDemo) {
        JsonObject agent = cfg.getJsonObject("agent", new JsonObject());
        model = DemoModel.choose(vertx, agent, env);
        demo = DemoShop.start(vertx, model, Connections.load(env), agent.getInteger("maxTurns", 8)).await();
        ratchet.register(demo.agent()).await();
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
      // a fresh install has nobody to log in as: make one approver for this run, who sees every session
      String password = env.get("RATCHET_ADMIN_PASSWORD");
      if (password == null || password.isBlank()) {
        password = generated = PasswordHash.newToken().substring(0, 16);
      }
      http.user("admin", Role.APPROVER, PasswordHash.hashPassword(password.toCharArray()), null,
          java.util.List.of(HttpOptions.ALL_TENANTS));
    }
    String demoToken = null;
    if (demo != null && http.tokens().isEmpty()) {
      // and no agent token: one for talking to the demo agent over HTTP, for this run
      demoToken = env.get("RATCHET_DEMO_TOKEN");
      if (demoToken == null || demoToken.isBlank()) {
        demoToken = PasswordHash.newToken();
      }
      http.token("demo-agent", Role.AGENT, PasswordHash.hashToken(demoToken));
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
    String dashboard = "http://localhost:" + server.actualPort() + "/";
    System.out.println("Ratchet is running (agents " + ratchet.agents() + ").");
    System.out.println("  Dashboard: " + dashboard);
    System.out.println("  Network transport: " + transport.describe());
    if (http.users().size() == 1 && "admin".equals(http.users().get(0).name())) {
      System.out.println("  Log in as admin with password " + (generated != null ? generated
          : "from RATCHET_ADMIN_PASSWORD") + " (configure http.users to choose your own)");
    }
    System.out.println("  HTTP API: docs/HTTP-API.md. Stop with Ctrl-C; turns and conversations in flight resume"
        + " on the next start.");
    if (demo != null) {
      printDemo(demo, model, dashboard, demoToken);
    }
    stopped.await();
    return 0;
  }

  private static void printDemo(DemoShop demo, ChatModel model, String dashboard, String token) {
    System.out.println("Demo shop service: " + demo.shop().baseUrl() + " (GET /stats shows what it did)");
    System.out.println("Demo agent '" + DemoShop.AGENT + "' with model: " + model.describe()
        + (model.describe().startsWith("scripted") ? " (set RATCHET_MODEL=openai:gpt-4.1-mini and OPENAI_API_KEY"
        + " for a real model)" : "") + "; Slack tool: "
        + (demo.hasSlack() ? "on (connection '" + DemoShop.SLACK_CONNECTION + "')"
        : "off (configure a connection '" + DemoShop.SLACK_CONNECTION + "' to add it)"));
    if (token == null) {
      System.out.println("Try it: POST {\"agent\":\"" + DemoShop.AGENT + "\",\"text\":\"cancel order 1002\"} to "
          + dashboard + "api/sessions/demo-1/messages with an agent token, then approve the cancel in the dashboard.");
      return;
    }
    System.out.println("Demo API token: " + token);
    System.out.println("Try it: send \"cancel order 1002\", then approve the cancel in the dashboard:");
    System.out.println("  curl -H 'Authorization: Bearer " + token + "' -H 'Content-Type: application/json' \\");
    System.out.println("    -d '{\"agent\":\"" + DemoShop.AGENT + "\",\"text\":\"cancel order 1002\"}' \\");
    System.out.println("    '" + dashboard + "api/sessions/demo-1/messages?wait=2'");
    System.out.println("  then approve cancel_order at " + dashboard + " and read the answer (also on the"
        + " session's page):");
    System.out.println("  curl -H 'Authorization: Bearer " + token + "' " + dashboard + "api/sessions/demo-1/messages");
  }
}
