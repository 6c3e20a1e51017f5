package dev.ratchet.server.cli;

import dev.ratchet.connectors.Connections;
import dev.ratchet.runtime.agent.ChatModel;
import dev.ratchet.verticles.Ratchet;
import dev.ratchet.verticles.RatchetConfig;
import dev.ratchet.verticles.RatchetOptions;
import dev.ratchet.server.demo.DemoModel;
import dev.ratchet.server.demo.DemoShop;
import dev.ratchet.server.demo.ShopService;
import dev.ratchet.verticles.http.HttpOptions;
import dev.ratchet.verticles.http.HttpServerVerticle;
import dev.ratchet.server.impl.TransportChoice;
import dev.ratchet.server.reload.AgentLoader;
import dev.ratchet.server.reload.ControlFiles;
import dev.ratchet.server.reload.DirectoryWatch;
import dev.ratchet.server.reload.ReloadSignal;
import dev.ratchet.server.reload.Reloader;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
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
    HttpOptions http;
    AdminCredentials credentials;
    try {
      http = HttpOptions.fromConfig(cfg.getJsonObject("http"));
      credentials = AdminCredentials.apply(http, !noDemo, env, AdminCredentials.file(cfg));
    } catch (IOException | IllegalArgumentException e) {
      System.err.println("Ratchet could not start: " + e.getMessage());
      return 1;
    }
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
        ShopService shop = new ShopService(ControlFiles.of(cfg).dataDir().resolve("demo-shop.json"));
        demo = DemoShop.start(vertx, model, Connections.load(env), agent.getInteger("maxTurns", 8), shop,
            shopPort(agent, env)).await();
        ratchet.register(demo.agent()).await();
      }
    } catch (Exception e) {
      System.err.println("Ratchet could not start: " + e.getMessage());
      vertx.close();
      redis.close();
      return 1;
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
    ControlFiles control = ControlFiles.of(cfg);
    AgentLoader loader = demoLoader(demo);
    Reloader reloader = new Reloader(ratchet, loader, control.report());
    DirectoryWatch watch;
    try {
      ReloadSignal.install(reloader);
      watch = DirectoryWatch.start(vertx, reloader, loader.watched(),
          cfg.getJsonObject("reload", new JsonObject()).getLong("debounceMillis", 500L));
      control.writePid();
    } catch (IOException e) {
      System.err.println("Ratchet could not set up reloading in " + control.dataDir() + ": " + e.getMessage());
      ratchet.close();
      vertx.close();
      redis.close();
      return 1;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        control.removePid();
        if (watch != null) {
          watch.close();
        }
        ratchet.close().await();
        vertx.close().await();
      } catch (Exception e) {
        // shutting down anyway
      } finally {
        redis.close();
        stopped.countDown();
      }
    }));
    String dashboard = "http://" + dashboardHost(http.host()) + ":" + server.actualPort() + "/";
    System.out.println("Ratchet is running (agents " + ratchet.agents() + ").");
    System.out.println("  Dashboard: " + dashboard);
    System.out.println("  Network transport: " + transport.describe());
    credentials.lines.forEach(System.out::println);
    System.out.println("  Reload agents without a restart: `ratchet reload --config " + config + "` (or SIGHUP to pid "
        + ProcessHandle.current().pid() + ").");
    System.out.println("  HTTP API: docs/HTTP-API.md. Stop with Ctrl-C; turns and conversations in flight resume"
        + " on the next start.");
    if (demo != null) {
      printDemo(demo, model, dashboard, credentials);
    }
    stopped.await();
    return 0;
  }

  /** The demo shop's port: {@code RATCHET_SHOP_PORT}, else {@code agent.shopPort}, else a fixed default. */
  private static int shopPort(JsonObject agent, Map<String, String> env) {
    String fromEnv = env.get("RATCHET_SHOP_PORT");
    if (fromEnv != null && !fromEnv.isBlank()) {
      try {
        return Integer.parseInt(fromEnv.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("RATCHET_SHOP_PORT must be a port number, got '" + fromEnv + "'");
      }
    }
    return agent.getInteger("shopPort", ShopService.DEFAULT_PORT);
  }

  /** What a reload loads: the demo agent's definition, the one agent {@code run} serves without agent files. */
  private static AgentLoader demoLoader(DemoShop demo) {
    return () -> Future.succeededFuture(demo == null ? List.of() : List.of(demo.agent()));
  }

  /** The host a browser on this machine uses: the configured one, unless it is a loopback or every interface. */
  private static String dashboardHost(String host) {
    boolean anyOrLoopback = host.equals("0.0.0.0") || host.equals("::") || host.startsWith("127.") || host.equals("::1")
        || host.equals("localhost");
    return anyOrLoopback ? "localhost" : host.contains(":") ? "[" + host + "]" : host;
  }

  private static void printDemo(DemoShop demo, ChatModel model, String dashboard, AdminCredentials credentials) {
    System.out.println("Demo shop service: " + demo.shop().baseUrl() + " (GET /stats shows what it did)");
    System.out.println("Demo agent '" + DemoShop.AGENT + "' with model: " + model.describe()
        + (model.describe().startsWith("scripted") ? " (set RATCHET_MODEL=openai:gpt-4.1-mini and OPENAI_API_KEY"
        + " for a real model)" : "") + "; Slack tool: "
        + (demo.hasSlack() ? "on (connection '" + DemoShop.SLACK_CONNECTION + "')"
        : "off (configure a connection '" + DemoShop.SLACK_CONNECTION + "' to add it)"));
    if (credentials.demoTokenSource == null) {
      System.out.println("Try it: POST {\"agent\":\"" + DemoShop.AGENT + "\",\"text\":\"cancel order 1002\"} to "
          + dashboard + "api/sessions/demo-1/messages with an agent token, then approve the cancel in the dashboard.");
      return;
    }
    System.out.println("Demo API token: " + credentials.demoTokenSource);
    // a token printed once only: later starts show the examples with a variable to set to it
    String token = credentials.printableDemoToken != null ? credentials.printableDemoToken : "$RATCHET_DEMO_TOKEN";
    System.out.println("Try it: send \"cancel order 1002\", then approve the cancel in the dashboard:");
    System.out.println("  curl -H \"Authorization: Bearer " + token + "\" -H 'Content-Type: application/json' \\");
    System.out.println("    -d '{\"agent\":\"" + DemoShop.AGENT + "\",\"text\":\"cancel order 1002\"}' \\");
    System.out.println("    '" + dashboard + "api/sessions/demo-1/messages?wait=2'");
    System.out.println("  then approve cancel_order at " + dashboard + " and read the answer (also on the"
        + " session's page):");
    System.out.println("  curl -H \"Authorization: Bearer " + token + "\" " + dashboard + "api/sessions/demo-1/messages");
  }
}
