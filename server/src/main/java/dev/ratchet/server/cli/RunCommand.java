package dev.ratchet.server.cli;

import dev.ratchet.connectors.Connections;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.journal.RedisTopology;
import dev.ratchet.runtime.agent.ChatModel;
import dev.ratchet.server.config.AgentDirectoryLoader;
import dev.ratchet.server.trace.Tracing;
import dev.ratchet.server.cluster.ClusterSettings;
import dev.ratchet.server.config.AgentFilesException;
import dev.ratchet.server.config.ToolProviders;
import dev.ratchet.server.demo.ShopService;
import dev.ratchet.verticles.NotificationOptions;
import dev.ratchet.verticles.NotificationsVerticle;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.RatchetOptions;
import dev.ratchet.server.demo.DemoShop;
import dev.ratchet.verticles.http.HttpOptions;
import dev.ratchet.verticles.http.HttpServerVerticle;
import dev.ratchet.server.impl.TransportChoice;
import dev.ratchet.server.reload.ControlFiles;
import dev.ratchet.server.reload.DirectoryWatch;
import dev.ratchet.server.reload.ReloadRequests;
import dev.ratchet.server.reload.ReloadSignal;
import dev.ratchet.server.reload.Reloader;
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
 * API and dashboard, and the agents of the agent files (the order-support demo's with its shop service).
 */
@CommandLine.Command(name = "run", mixinStandardHelpOptions = true, description = "Start the runtime (the default command).")
public final class RunCommand implements Callable<Integer> {

  @CommandLine.Mixin
  ConfigFile config = new ConfigFile();

  @CommandLine.Option(names = "--no-demo", description = "do not start the demo shop nor load the demo's agent file"
      + " (demo.yaml)")
  boolean noDemo;

  @CommandLine.Option(names = "--cluster", description = "join a Vert.x cluster (the cluster section of the"
      + " configuration; docs/CLUSTER.md); needs a shared Redis (redis.url)")
  boolean cluster;

  @Override
  public Integer call() throws Exception {
    Map<String, String> env = System.getenv();
    JsonObject cfg = config.load(env);
    HttpOptions http;
    AdminCredentials credentials;
    NotificationOptions notifications;
    Path agentsDir = AgentSetup.dir(cfg, env);
    // the demo runs only where its agent file is; a demo token for no demo agent would open the API for nothing
    boolean demoFound;
    try {
      http = HttpOptions.fromConfig(cfg.getJsonObject("http"));
      notifications = NotificationOptions.fromConfig(cfg.getJsonObject("notifications"));
      demoFound = !noDemo && AgentSetup.files(agentsDir, true).stream().anyMatch(AgentSetup::isDemo);
      credentials = AdminCredentials.apply(http, demoFound, env, AdminCredentials.file(cfg));
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
    ClusterSettings clusterSettings;
    try {
      clusterSettings = ClusterSettings.from(cfg, cluster);
    } catch (IllegalArgumentException e) {
      System.err.println("Ratchet could not start: " + e.getMessage());
      return 1;
    }
    JsonObject redisSettings = cfg.getJsonObject("redis", new JsonObject());
    String sharedRedis = redisSettings.getString("url");
    if (clusterSettings.enabled() && (sharedRedis == null || sharedRedis.isBlank())
        && RedisTopology.fromJson(redisSettings).isStandalone()) {
      System.err.println("Ratchet could not start: cluster mode needs one Redis that every member journals to;"
          + " set redis.url (or RATCHET_REDIS_URL), or redis.type cluster or sentinel: the embedded Redis belongs"
          + " to one node");
      return 1;
    }
    RedisChoice redis;
    try {
      redis = RedisChoice.from(cfg);
    } catch (IOException | IllegalArgumentException e) {
      System.err.println("Ratchet could not start its embedded Redis: " + e.getMessage());
      return 1;
    }
    String traces;
    try {
      traces = Tracing.installFrom(env);
    } catch (RuntimeException e) {
      System.err.println("Ratchet could not start: OpenTelemetry configuration (OTEL_*): " + e.getMessage());
      redis.close();
      return 1;
    }
    if (traces != null) {
      System.out.println(traces);
    }
    Vertx vertx;
    if (clusterSettings.enabled()) {
      try {
        vertx = clusterSettings.vertx(transport.transport()).await();
      } catch (Exception e) {
        System.err.println("Ratchet could not join its cluster (" + clusterSettings.describe() + "): " + e.getMessage());
        redis.close();
        return 1;
      }
    } else {
      vertx = transport.vertx();
    }
    RatchetNode ratchet;
    ShopService shop = null;
    AgentDirectoryLoader agents = null;
    ControlFiles control = ControlFiles.of(cfg);
    try {
      // ready only once the agent files are loaded: until then HTTP answers NOT_READY and no session is placed here
      ratchet = RatchetNode.deploy(vertx, RatchetOptions.fromConfig(cfg).redisUrl(redis.url).deferReady(true)).await();
    } catch (Exception e) {
      System.err.println("Ratchet could not start: " + e.getMessage());
      vertx.close();
      redis.close();
      return 1;
    }
    // read once: the HTTP API's providers, the agent files and the notifications see the same connections
    Connections loaded = Connections.load(env);
    HttpServerVerticle server = new HttpServerVerticle(ratchet, http).providers(ToolProviders.of(vertx, loaded));
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
    System.out.println("Ratchet serves HTTP on port " + server.actualPort() + "; it takes sessions once its agent"
        + " files are loaded (GET /health/ready).");
    try {
      List<Path> files = AgentSetup.files(agentsDir, !noDemo);
      Connections connections = loaded;
      if (files.stream().anyMatch(AgentSetup::isDemo)) {
        JsonObject agent = cfg.getJsonObject("agent", new JsonObject());
        shop = DemoShop.start(vertx, new ShopService(control.dataDir().resolve("demo-shop.json")),
            shopPort(agent, env)).await();
        connections = AgentSetup.withDemo(connections, shop.baseUrl());
      }
      boolean demo = !noDemo;
      agents = new AgentDirectoryLoader(vertx, ratchet, agentsDir, () -> AgentSetup.files(agentsDir, demo),
          connections, AgentSetup.models(vertx, cfg, env));
      // the first load is defined like every reload: agents registered from Java stay, a clash with one fails
      List<AgentDefinition> definitions = agents.load().await();
      try {
        ratchet.define(definitions).await();
      } catch (Exception e) {
        agents.settled(false);
        throw e;
      }
      agents.settled(true);
      if (notifications.any()) {
        vertx.deployVerticle(new NotificationsVerticle(notifications, loaded)).await();
      }
      ratchet.markReady().await();
    } catch (Exception e) {
      if (e instanceof AgentFilesException problems) {
        System.err.println("Ratchet could not start: " + problems.errors().size() + " problem(s) in the agent files of "
            + agentsDir + " (ratchet check lists them without starting):");
        problems.errors().forEach(System.err::println);
      } else {
        System.err.println("Ratchet could not start: " + e.getMessage());
      }
      if (agents != null) {
        agents.close();
      }
      ratchet.close();
      vertx.close();
      redis.close();
      return 1;
    }
    Reloader reloader = new Reloader(ratchet, agents, control.report());
    DirectoryWatch watch;
    ReloadRequests requests;
    boolean signal;
    try {
      signal = ReloadSignal.install(reloader);
      requests = ReloadRequests.start(vertx, reloader, control);
      watch = DirectoryWatch.start(vertx, reloader, agents.watched(),
          cfg.getJsonObject("reload", new JsonObject()).getLong("debounceMillis", 500L));
      control.writePid();
    } catch (IOException e) {
      System.err.println("Ratchet could not set up reloading in " + control.dataDir() + ": " + e.getMessage());
      agents.close();
      ratchet.close();
      vertx.close();
      redis.close();
      return 1;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    AgentDirectoryLoader started = agents;
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        control.removePid();
        requests.close();
        if (watch != null) {
          watch.close();
        }
        // the runtime first: a member leaving a cluster still sends the writes in flight through the agents' sources
        ratchet.close().await();
        started.close().await();
        vertx.close().await();
      } catch (Exception e) {
        // shutting down anyway
      } finally {
        redis.close();
        stopped.countDown();
      }
    }));
    String dashboard = "http://" + dashboardHost(http.host()) + ":" + server.actualPort() + "/";
    System.out.println("Ratchet is ready: agents loaded, journal writable" + (clusterSettings.enabled()
        ? ", in the cluster's placement." : "."));
    System.out.println("Ratchet is running (agents " + ratchet.queries().agents() + ").");
    if (agents.agents().isEmpty()) {
      System.out.println("  No agent files in " + agentsDir.toAbsolutePath() + " (docs/CONFIGURATION.md, Agent files).");
    } else {
      System.out.println("  Agent files: " + agentsDir + " (check them with: ratchet check)");
    }
    if (!noDemo && !demoFound) {
      System.out.println("  No demo: " + DemoShop.FILE + " is not in " + agentsDir.toAbsolutePath().normalize()
          + ", so no demo shop and no demo token. This serves the HTTP API, the dashboard and the MCP endpoints of"
          + " the agents above; to run the demo, start from the repository root or set " + AgentSetup.DIR_VARIABLE
          + " (or agents.dir) to a directory holding " + DemoShop.FILE + ".");
    }
    System.out.println("  Dashboard: " + dashboard);
    System.out.println("  Network transport: " + transport.describe());
    if (clusterSettings.enabled()) {
      System.out.println("  Cluster: node " + ratchet.cluster().node() + " of " + ratchet.cluster().members().size()
          + " member(s); " + clusterSettings.describe());
    }
    credentials.lines.forEach(System.out::println);
    System.out.println("  Reload agents without a restart: `ratchet reload --config " + config + "`" + (signal
        ? " (or SIGHUP to pid " + ProcessHandle.current().pid() + ")" : " (SIGHUP does not reach this process: it was"
        + " started ignoring it, as nohup does)") + "; changes to " + agentsDir + " reload by themselves.");
    System.out.println("  HTTP API: docs/HTTP-API.md. Stop with Ctrl-C; turns and conversations in flight resume"
        + " on the next start.");
    if (shop != null) {
      printDemo(shop, ratchet, agents, dashboard, credentials);
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

  /** The host a browser on this machine uses: the configured one, unless it is a loopback or every interface. */
  private static String dashboardHost(String host) {
    boolean anyOrLoopback = host.equals("0.0.0.0") || host.equals("::") || host.startsWith("127.") || host.equals("::1")
        || host.equals("localhost");
    return anyOrLoopback ? "localhost" : host.contains(":") ? "[" + host + "]" : host;
  }

  private static void printDemo(ShopService shop, RatchetNode ratchet, AgentDirectoryLoader agents, String dashboard,
                                AdminCredentials credentials) {
    System.out.println("Demo shop service: " + shop.baseUrl() + " (GET /stats shows what it did)");
    AgentDefinition agent = agents.agents().stream().filter(a -> a.name().equals(DemoShop.AGENT)).findFirst()
        .orElse(null);
    if (agent == null) {
      return;
    }
    ChatModel model = agent.model();
    String described = model == null ? "none" : model.describe();
    ToolCatalog catalog = ratchet.queries().catalog(DemoShop.AGENT);
    boolean slack = catalog != null && catalog.entries().stream().anyMatch(e -> e.tool().name().startsWith("slack_"));
    System.out.println("Demo agent '" + DemoShop.AGENT + "' (" + agent.origin() + ") with model: " + described
        + (described.startsWith("scripted") ? " (set RATCHET_MODEL=openai:gpt-4.1-mini and OPENAI_API_KEY"
        + " for a real model)" : "") + "; Slack tool: "
        + (slack ? "on" : "off (add a slack entry with a connection '" + DemoShop.SLACK_CONNECTION + "' to its file)"));
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
    System.out.println("  then approve shop_cancel_order at " + dashboard + " and read the answer (also on the"
        + " session's page):");
    System.out.println("  curl -H \"Authorization: Bearer " + token + "\" " + dashboard + "api/sessions/demo-1/messages");
  }
}
