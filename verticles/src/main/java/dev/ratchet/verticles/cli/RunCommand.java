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
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * Starts the runtime: journal (embedded Redis when none is configured), session manager, the HTTP
 * API and dashboard, and the order-support demo agent with its shop service.
 */
@CommandLine.Command(name = "run", description = "Start the runtime (the default command).")
public final class RunCommand implements Callable<Integer> {

  static final String DEMO_USER = "demo";

  @CommandLine.Option(names = "--config", description = "configuration file (default: ${DEFAULT-VALUE})",
      defaultValue = "conf/ratchet.json")
  Path config;

  @CommandLine.Option(names = "--no-demo", description = "do not start the demo agent and its shop")
  boolean noDemo;

  @Override
  public Integer call() throws Exception {
    Map<String, String> env = System.getenv();
    JsonObject cfg = RatchetConfig.load(config, env);
    RedisChoice redis = RedisChoice.from(cfg);
    Vertx vertx = Vertx.vertx();
    Ratchet ratchet;
    DemoShop demo = null;
    HttpServerVerticle http;
    String password = null;
    String token = null;
    ChatModel model = null;
    try {
      ratchet = Ratchet.deploy(vertx, RatchetOptions.fromConfig(cfg).redisUrl(redis.url)).await();
      HttpOptions httpOptions = HttpOptions.fromConfig(cfg.getJsonObject("http"));
      if (!noDemo) {
        JsonObject agent = cfg.getJsonObject("agent", new JsonObject());
        model = DemoModel.choose(vertx, agent, env);
        demo = DemoShop.start(vertx, model, Connections.load(env), agent.getInteger("maxTurns", 8)).await();
        ratchet.register(demo.agent()).await();
        if (httpOptions.users().isEmpty() && httpOptions.tokens().isEmpty()) {
          // no people or agents configured: a demo login and a demo token, shown below
          password = env.getOrDefault("RATCHET_DEMO_PASSWORD", randomWord());
          token = env.getOrDefault("RATCHET_DEMO_TOKEN", PasswordHash.newToken());
          httpOptions.user(DEMO_USER, Role.APPROVER, PasswordHash.hashPassword(password.toCharArray()));
          httpOptions.token("demo-agent", Role.AGENT, PasswordHash.hashToken(token));
        }
      }
      http = new HttpServerVerticle(ratchet, httpOptions);
      vertx.deployVerticle(http).await();
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
    String dashboard = "http://localhost:" + http.actualPort() + "/";
    System.out.println("Ratchet is running (node " + RatchetOptions.fromConfig(cfg).nodeId() + ", agents "
        + ratchet.agents() + "). Stop with Ctrl-C; turns and conversations in flight resume on the next start.");
    System.out.println("Dashboard: " + dashboard);
    if (demo != null) {
      printDemo(demo, model, dashboard, password, token);
    }
    stopped.await();
    return 0;
  }

  private static void printDemo(DemoShop demo, ChatModel model, String dashboard, String password, String token) {
    System.out.println("Demo shop service: " + demo.shop().baseUrl() + " (GET /stats shows what it did)");
    System.out.println("Demo agent '" + DemoShop.AGENT + "' with model: " + model.describe()
        + (model.describe().startsWith("scripted") ? " (set RATCHET_MODEL=openai:gpt-4.1-mini and OPENAI_API_KEY"
        + " for a real model)" : "") + "; Slack tool: "
        + (demo.hasSlack() ? "on (connection '" + DemoShop.SLACK_CONNECTION + "')"
        : "off (configure a connection '" + DemoShop.SLACK_CONNECTION + "' to add it)"));
    if (password != null) {
      System.out.println("Demo login: " + DEMO_USER + " / " + password + "   Demo API token: " + token);
      System.out.println("Try it: send \"cancel order 1002\", then approve the cancel in the dashboard:");
      System.out.println("  curl -H 'Authorization: Bearer " + token + "' -H 'Content-Type: application/json' \\");
      System.out.println("    -d '{\"agent\":\"" + DemoShop.AGENT + "\",\"text\":\"cancel order 1002\"}' \\");
      System.out.println("    '" + dashboard + "api/sessions/demo-1/messages?wait=2'");
      System.out.println("  then log in at " + dashboard + " as " + DEMO_USER + ", approve cancel_order, and read the answer:");
      System.out.println("  curl -H 'Authorization: Bearer " + token + "' " + dashboard + "api/sessions/demo-1/messages");
    }
  }

  private static String randomWord() {
    String alphabet = "abcdefghjkmnpqrstuvwxyz23456789";
    SecureRandom random = new SecureRandom();
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 12; i++) {
      sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return sb.toString();
  }
}
