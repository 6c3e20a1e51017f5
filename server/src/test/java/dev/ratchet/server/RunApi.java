package dev.ratchet.server;

import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTTP API of a {@link RunChild} as its users call it: reads with the agent token, or with the
 * admin's login cookie where a person's login is needed, and the admin deciding approvals.
 */
public final class RunApi {

  private final RunChild run;
  private final HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager())
      .connectTimeout(Duration.ofSeconds(5)).build();

  public RunApi(RunChild run) {
    this.run = run;
  }

  /** A GET answered with 200: with the agent token, else with the login cookie; its JSON body. */
  public JsonObject get(String path) {
    try {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(run.baseUrl() + path))
          .header("Authorization", "Bearer " + run.token()).GET().build(), HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        // approvals need a person's login: the cookie from login() is sent without the token then
        r = http.send(HttpRequest.newBuilder(URI.create(run.baseUrl() + path)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
      }
      assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
      return new JsonObject(r.body());
    } catch (IOException | InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  public HttpResponse<String> post(String path, JsonObject body, Map<String, String> headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(run.baseUrl() + path))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body.encode()));
    headers.forEach(b::header);
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Logs the admin in; the CSRF token that decisions carry. */
  public String login() throws Exception {
    HttpResponse<String> r = post("/login", new JsonObject().put("name", "admin").put("password", run.password()),
        Map.of());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return new JsonObject(r.body()).getString("csrfToken");
  }

  /** The results of a turn, once it completed. */
  public JsonObject turnResults(String session, String turnId, int seconds) {
    JsonObject[] found = new JsonObject[1];
    run.until(() -> {
      JsonObject r = get("/api/sessions/" + session + "/turns/" + turnId + "?wait=5");
      if ("completed".equals(r.getString("status"))) {
        found[0] = r.getJsonObject("results");
        return true;
      }
      return false;
    }, seconds);
    return found[0];
  }

  /** The outcome of the first call of a turn as the API answers it, or null while the turn is not completed. */
  public static String firstOutcome(JsonObject turn) {
    if (!"completed".equals(turn.getString("status"))) {
      return null;
    }
    return turn.getJsonObject("results").getJsonArray("results").getJsonObject(0).getString("outcome");
  }

  /** The first pending approval of the session, once there is one. */
  public JsonObject awaitApproval(String session, int seconds) {
    JsonObject[] found = new JsonObject[1];
    run.until(() -> {
      for (Object o : get("/api/approvals").getJsonArray("approvals")) {
        if (session.equals(((JsonObject) o).getString("sessionId"))) {
          found[0] = (JsonObject) o;
          return true;
        }
      }
      return false;
    }, seconds);
    return found[0];
  }

  /** Approves the request as the logged-in admin, for the arguments it was asked with. */
  public void approve(JsonObject approval, String csrf, String reason) throws Exception {
    HttpResponse<String> decided = post("/api/approvals/" + approval.getString("sessionId") + "/"
        + approval.getString("callId"), new JsonObject().put("argumentsHash", approval.getString("argumentsHash"))
        .put("approved", true).put("reason", reason), Map.of("X-CSRF-Token", csrf));
    assertThat(decided.statusCode()).as(decided.body()).isEqualTo(200);
  }
}
