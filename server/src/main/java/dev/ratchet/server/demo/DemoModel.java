package dev.ratchet.server.demo;

import dev.ratchet.model.langchain4j.LangChain4jModel;
import dev.ratchet.runtime.agent.ChatModel;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.Map;

/**
 * The demo agent's model from the {@code agent} configuration: {@code scripted} (the default, no
 * network) or {@code openai:<model>} through LangChain4j, with the key from {@code OPENAI_API_KEY}
 * (or {@code RATCHET_MODEL_API_KEY}) and any OpenAI-compatible server via {@code modelBaseUrl}.
 */
public final class DemoModel {

  private DemoModel() {
  }

  public static ChatModel choose(Vertx vertx, JsonObject agentConfig, Map<String, String> env) {
    JsonObject cfg = agentConfig == null ? new JsonObject() : agentConfig;
    String spec = cfg.getString("model");
    if (spec == null || spec.isBlank() || spec.equals("scripted")) {
      return DemoScript.model();
    }
    int colon = spec.indexOf(':');
    String provider = colon < 0 ? spec : spec.substring(0, colon);
    String name = colon < 0 ? "" : spec.substring(colon + 1);
    if (!provider.equals("openai") || name.isBlank()) {
      throw new IllegalArgumentException("RATCHET_MODEL (agent.model) must be 'scripted' or 'openai:<model>', for"
          + " example openai:gpt-4.1-mini, got '" + spec + "'. Other LangChain4j providers: embed Ratchet and pass"
          + " LangChain4jModel.of(vertx, yourChatModel) to AgentDefinition.Builder.model");
    }
    String key = env.getOrDefault("RATCHET_MODEL_API_KEY", env.get("OPENAI_API_KEY"));
    String baseUrl = cfg.getString("modelBaseUrl");
    if ((key == null || key.isBlank()) && (baseUrl == null || baseUrl.isBlank())) {
      throw new IllegalArgumentException("RATCHET_MODEL=" + spec + " needs OPENAI_API_KEY (or RATCHET_MODEL_API_KEY),"
          + " or RATCHET_MODEL_BASE_URL for an OpenAI-compatible server that needs no key");
    }
    return LangChain4jModel.openAi(vertx, name, key, baseUrl,
        Duration.ofMillis(cfg.getLong("modelTimeoutMillis", 60_000L)));
  }
}
