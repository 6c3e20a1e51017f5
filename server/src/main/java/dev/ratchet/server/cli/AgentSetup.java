package dev.ratchet.server.cli;

import dev.ratchet.connectors.Connection;
import dev.ratchet.connectors.Connections;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.agent.ChatModel;
import dev.ratchet.server.config.AgentFiles;
import dev.ratchet.server.config.AgentModels;
import dev.ratchet.server.demo.DemoModel;
import dev.ratchet.server.demo.DemoScript;
import dev.ratchet.server.demo.DemoShop;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** What {@code run} and {@code check} share: which agent files, which models, the demo's connection. */
final class AgentSetup {

  static final String DIR_VARIABLE = "RATCHET_AGENTS_DIR";

  private AgentSetup() {
  }

  /** {@code RATCHET_AGENTS_DIR}, else the setting {@code agents.dir}, else {@code conf/agents}. */
  static Path dir(JsonObject cfg, Map<String, String> env) {
    String fromEnv = env.get(DIR_VARIABLE);
    if (fromEnv != null && !fromEnv.isBlank()) {
      return Path.of(fromEnv.trim());
    }
    String configured = cfg.getJsonObject("agents", new JsonObject()).getString("dir");
    return Path.of(configured == null || configured.isBlank() ? AgentFiles.DEFAULT_DIR : configured);
  }

  /** The agent files of the directory; without the demo's file when the demo is off. */
  static List<Path> files(Path dir, boolean demo) throws IOException {
    List<Path> files = new ArrayList<>(AgentFiles.files(dir));
    if (!demo) {
      files.removeIf(AgentSetup::isDemo);
    }
    return files;
  }

  static boolean isDemo(Path file) {
    return file.getFileName().toString().equals(DemoShop.FILE);
  }

  static Connections withDemo(Connections connections, String shopUrl) {
    List<Connection> all = new ArrayList<>(connections.all());
    all.add(DemoShop.connection(shopUrl));
    return Connections.of(all.toArray(Connection[]::new));
  }

  /**
   * Models of agent files: {@code openai:<model>} with the key from {@code OPENAI_API_KEY} and the
   * {@code agent} settings (base URL, timeout); {@code scripted} the demo's script, unless
   * {@code agent.model} ({@code RATCHET_MODEL}) names another model to use in its place.
   */
  static AgentModels models(Vertx vertx, JsonObject cfg, Map<String, String> env) {
    JsonObject agent = cfg.getJsonObject("agent", new JsonObject());
    return new AgentModels() {
      @Override
      public ChatModel model(String spec) {
        if (spec.equals("scripted")) {
          String configured = agent.getString("model");
          return configured == null || configured.isBlank() || configured.equals("scripted") ? DemoScript.model()
              : DemoModel.choose(vertx, agent, env);
        }
        String key = env.getOrDefault("RATCHET_MODEL_API_KEY", env.get("OPENAI_API_KEY"));
        String baseUrl = agent.getString("modelBaseUrl");
        if ((key == null || key.isBlank()) && (baseUrl == null || baseUrl.isBlank())) {
          throw new IllegalArgumentException(spec + " needs OPENAI_API_KEY (or RATCHET_MODEL_API_KEY), or"
              + " agent.modelBaseUrl (RATCHET_MODEL_BASE_URL) for an OpenAI-compatible server that needs no key");
        }
        return DemoModel.choose(vertx, agent.copy().put("model", spec), env);
      }

      @Override
      public int defaultMaxTurns() {
        return agent.getInteger("maxTurns", AgentDefinition.DEFAULT_MAX_TURNS);
      }
    };
  }
}
