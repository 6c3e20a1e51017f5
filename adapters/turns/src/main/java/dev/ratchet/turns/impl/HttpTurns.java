package dev.ratchet.turns.impl;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.turns.AgentTool;
import dev.ratchet.turns.RatchetTurns;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * An agent of a Ratchet reached over its HTTP API: {@code POST /api/sessions/{id}/turns}, then
 * long-polls {@code GET .../turns/{turnId}?wait=} until the turn completes (approvals may take long).
 */
public final class HttpTurns implements RatchetTurns {

  private static final int WAIT_SECONDS = 55;

  private final HttpClient client;
  private final URI base;
  private final String agent;
  private final String token;

  public HttpTurns(URI baseUrl, String agent, String token, Duration connectTimeout) {
    this.client = HttpClient.newBuilder().connectTimeout(connectTimeout).build();
    String text = baseUrl.toString();
    this.base = URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
    this.agent = agent;
    this.token = token;
  }

  @Override
  public String agent() {
    return agent;
  }

  @Override
  public CompletionStage<TurnResult> submit(String sessionId, Turn turn) {
    String session = "/api/sessions/" + encode(sessionId) + "/turns";
    JsonObject body = new JsonObject().put("agent", agent).put("turn", turn.toJson());
    HttpRequest post = request(session).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body.encode())).build();
    return send(post).thenCompose(answer -> "completed".equals(answer.getString("status"))
        ? CompletableFuture.completedFuture(TurnResult.fromJson(answer.getJsonObject("results")))
        : poll(session + "/" + encode(turn.turnId())));
  }

  private CompletionStage<TurnResult> poll(String path) {
    HttpRequest get = request(path + "?wait=" + WAIT_SECONDS).timeout(Duration.ofSeconds(WAIT_SECONDS + 30)).GET().build();
    return send(get).thenCompose(answer -> "completed".equals(answer.getString("status"))
        ? CompletableFuture.completedFuture(TurnResult.fromJson(answer.getJsonObject("results")))
        : poll(path));
  }

  @Override
  public CompletionStage<List<AgentTool>> tools() {
    return send(request("/api/agents/" + encode(agent) + "/tools").GET().build()).thenApply(answer -> {
      List<AgentTool> tools = new ArrayList<>();
      for (Object o : answer.getJsonArray("tools", new JsonArray())) {
        tools.add(AgentTool.fromJson((JsonObject) o));
      }
      return tools;
    });
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Bearer " + token)
        .header("Accept", "application/json");
  }

  private CompletionStage<JsonObject> send(HttpRequest request) {
    return client.sendAsync(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8)).thenApply(response -> {
      JsonObject json;
      try {
        json = new JsonObject(response.body());
      } catch (DecodeException | ClassCastException e) {
        throw new RatchetException(ErrorCode.INTERNAL, "Ratchet answered " + response.statusCode() + " without a JSON object");
      }
      if (response.statusCode() >= 300) {
        throw new RatchetException(codeOf(json.getString("code")),
            json.getString("message", "Ratchet answered " + response.statusCode()));
      }
      return json;
    });
  }

  private static String encode(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** The API's error code as the enum both sides share; a code this version does not know is {@code INTERNAL}. */
  private static ErrorCode codeOf(String code) {
    for (ErrorCode c : ErrorCode.values()) {
      if (c.name().equals(code)) {
        return c;
      }
    }
    return ErrorCode.INTERNAL;
  }
}
