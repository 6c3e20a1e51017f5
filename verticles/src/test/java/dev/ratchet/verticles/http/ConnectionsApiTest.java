package dev.ratchet.verticles.http;

import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The Connections API against the local Composio protocol server: each caller's own connections only. */
class ConnectionsApiTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  private ConnectionsRuntime runtime;

  @BeforeEach
  void start() {
    runtime = new ConnectionsRuntime(REDIS);
  }

  @AfterEach
  void stop() {
    runtime.close();
  }

  private Http as(String name) {
    return Http.login(runtime.baseUrl(), name, ConnectionsRuntime.PASSWORD);
  }

  private static List<String> ids(Http.Answer a) {
    assertThat(a.status()).as(a.body()).isEqualTo(200);
    return a.json().getJsonArray("connections").stream().map(c -> ((JsonObject) c).getString("id")).toList();
  }

  @Test
  void aCallerListsOnlyItsOwnConnectionsWithTheirStatus() {
    Http.Answer alice = as("alice").get("/api/connections");
    assertThat(ids(alice)).containsExactlyInAnyOrder("ca_alice_github", "ca_alice_gmail");
    JsonObject github = alice.json().getJsonArray("connections").stream().map(c -> (JsonObject) c)
        .filter(c -> c.getString("id").equals("ca_alice_github")).findFirst().orElseThrow();
    assertThat(github.getString("provider")).isEqualTo("composio");
    assertThat(github.getString("toolkit")).isEqualTo("github");
    assertThat(github.getBoolean("active")).isTrue();
    assertThat(ids(as("bob").get("/api/connections"))).containsExactly("ca_bob_github");
  }

  @Test
  void anAuthorizationGivesTheProvidersLinkAndIsSeenToCompleteThenListed() {
    Http alice = as("alice");
    Http.Answer started = alice.post("/api/providers/composio/authorizations", new JsonObject().put("toolkit", "github"));
    assertThat(started.status()).as(started.body()).isEqualTo(200);
    String authId = started.json().getString("authId");
    assertThat(started.json().getString("url")).isEqualTo("https://connect.composio.example/" + authId);
    assertThat(runtime.composio.ownerOf(authId)).isEqualTo("alice");

    Http.Answer pending = alice.get("/api/providers/composio/authorizations/" + authId);
    assertThat(pending.json().getString("state")).isEqualTo("pending");
    runtime.composio.account(authId, "alice", "github", "ACTIVE");
    Http.Answer done = alice.get("/api/providers/composio/authorizations/" + authId);
    assertThat(done.json().getString("state")).isEqualTo("completed");
    assertThat(done.json().getString("connectionId")).isEqualTo(authId);
    assertThat(ids(alice.get("/api/connections"))).contains(authId);

    Http.Answer noToolkit = alice.post("/api/providers/composio/authorizations", new JsonObject());
    assertThat(noToolkit.status()).isEqualTo(400);
    assertThat(noToolkit.json().getString("message")).contains("'toolkit'");
  }

  @Test
  void theFieldsAToolkitAsksForAreListedAndTheirValuesGoWithTheAuthorization() {
    Http alice = as("alice");
    Http.Answer fields = alice.get("/api/providers/composio/toolkits/gmail/fields");
    assertThat(fields.status()).as(fields.body()).isEqualTo(200);
    JsonObject apiKey = fields.json().getJsonArray("fields").getJsonObject(0);
    assertThat(apiKey.getString("name")).isEqualTo("api_key");
    assertThat(apiKey.getBoolean("required")).isTrue();
    assertThat(apiKey.getBoolean("secret")).isTrue();

    Http.Answer started = alice.post("/api/providers/composio/authorizations", new JsonObject().put("toolkit", "gmail")
        .put("fields", new JsonObject().put("api_key", "alices-key-42").put("subdomain", "alice-co")));
    assertThat(started.status()).as(started.body()).isEqualTo(200);
    String authId = started.json().getString("authId");
    assertThat(runtime.composio.initiatedWith.get(authId).getJsonObject("val").getString("api_key"))
        .isEqualTo("alices-key-42");
    assertThat(started.body()).doesNotContain("alices-key-42");

    Http.Answer missing = alice.post("/api/providers/composio/authorizations", new JsonObject().put("toolkit", "gmail")
        .put("fields", new JsonObject().put("subdomain", "alice-co")));
    assertThat(missing.status()).as(missing.body()).isEqualTo(400);
    assertThat(missing.json().getString("message")).contains("api_key");
    Http.Answer notText = alice.post("/api/providers/composio/authorizations", new JsonObject().put("toolkit", "gmail")
        .put("fields", new JsonObject().put("api_key", 42)));
    assertThat(notText.status()).isEqualTo(400);
    assertThat(notText.json().getString("message")).contains("'fields.api_key'");
  }

  @Test
  void aCallerRevokesItsOwnConnectionButAnothersAnswersLikeAMissingOne() {
    Http alice = as("alice");
    Http.Answer others = alice.delete("/api/providers/composio/connections/ca_bob_github");
    assertThat(others.status()).as(others.body()).isEqualTo(404);
    assertThat(others.json().getString("code")).isEqualTo("UNKNOWN_CONNECTION");
    assertThat(ids(as("bob").get("/api/connections"))).containsExactly("ca_bob_github");

    Http.Answer own = alice.delete("/api/providers/composio/connections/ca_alice_gmail");
    assertThat(own.status()).as(own.body()).isEqualTo(200);
    assertThat(ids(alice.get("/api/connections"))).containsExactly("ca_alice_github");
  }

  @Test
  void anOperatorActsForAnyCallerAndNobodyElseDoes() {
    assertThat(ids(as("olga").get("/api/connections?caller=bob"))).containsExactly("ca_bob_github");
    Http.Answer refused = as("alice").get("/api/connections?caller=bob");
    assertThat(refused.status()).isEqualTo(403);
    Http.Answer viewer = as("vic").post("/api/providers/composio/authorizations", new JsonObject().put("toolkit", "github"));
    assertThat(viewer.status()).isEqualTo(403);
    assertThat(as("olga").delete("/api/providers/composio/connections/ca_bob_github?caller=bob").status())
        .isEqualTo(200);
  }

  @Test
  void providersToolkitsAndToolsCanBeBrowsedAndSearchedWithTheirSchemas() {
    Http vic = as("vic");
    JsonObject provider = vic.get("/api/providers").json().getJsonArray("providers").getJsonObject(0);
    assertThat(provider.getString("name")).isEqualTo("composio");
    assertThat(provider.getJsonObject("capabilities").getBoolean("revokeConnection")).isTrue();
    assertThat(provider.getJsonObject("health")).isNotNull();

    JsonArray toolkits = vic.get("/api/providers/composio/toolkits").json().getJsonArray("items");
    assertThat(toolkits.stream().map(t -> ((JsonObject) t).getString("slug")).toList()).contains("github", "gmail");
    JsonArray found = vic.get("/api/providers/composio/tools?search=issue").json().getJsonArray("items");
    assertThat(found.stream().map(t -> ((JsonObject) t).getString("slug")).toList())
        .contains("GITHUB_CREATE_ISSUE", "GITHUB_GET_ISSUE").doesNotContain("GMAIL_SEND_EMAIL");
    JsonObject schema = vic.get("/api/providers/composio/tools/GITHUB_GET_REPO/schema").json();
    assertThat(schema.getJsonObject("inputSchema").getString("type")).isEqualTo("object");

    Http.Answer unknown = vic.get("/api/providers/nope/tools");
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.json().getString("message")).contains("no tool provider named 'nope'");
  }
}
