package dev.ratchet.connectors;

import dev.ratchet.connectors.testing.ConnectionFiles;
import dev.ratchet.runtime.Secret;
import dev.ratchet.runtime.ToolNotSentException;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConnectionsTest {

  static final String TOKEN = "xoxb-secret-token-123";

  @TempDir
  Path dir;

  private Map<String, String> env(Path file) {
    Map<String, String> env = new HashMap<>();
    env.put(Connections.FILE_VARIABLE, file.toString());
    return env;
  }

  private Path privateFile(JsonObject content) {
    return ConnectionFiles.writePrivate(dir.resolve("connections.json"), content);
  }

  @Test
  void connectionFileWithOwnerOnlyModeLoadsConnectorConfigAndCredentials() {
    Path file = privateFile(ConnectionFiles.slackConnection("support-slack", "http://localhost:1/api", TOKEN));
    Connection c = Connections.load(env(file)).connection("support-slack");
    assertThat(c.connectorId()).isEqualTo("slack");
    assertThat(c.configString("baseUrl", null)).isEqualTo("http://localhost:1/api");
    assertThat(c.credentialNames()).containsExactly("botToken");
    assertThat(c.revealCredential("botToken")).isEqualTo(TOKEN);
    assertThat(c.origin()).contains(file.toString());
  }

  @Test
  void credentialsNeverShowInToStringOrSerialization() throws Exception {
    Path file = privateFile(ConnectionFiles.slackConnection("support-slack", "http://localhost:1/api", TOKEN));
    Connections all = Connections.load(env(file));
    Connection c = all.connection("support-slack");
    assertThat(c.toString()).doesNotContain(TOKEN).contains("***");
    assertThat(all.toString()).doesNotContain(TOKEN);
    Secret secret = c.credential("botToken");
    assertThat(secret.toString()).isEqualTo("***");
    assertThat(new JsonObject().put("token", secret.toJson()).encode()).doesNotContain(TOKEN);
    assertThatThrownBy(() -> new ObjectOutputStream(new ByteArrayOutputStream()).writeObject(secret))
        .isInstanceOf(NotSerializableException.class);
  }

  @Test
  void missingFileMeansNoConnections() {
    Connections all = Connections.load(env(dir.resolve("does-not-exist.json")));
    assertThat(all.isEmpty()).isTrue();
    assertThat(all.find("support-slack")).isEmpty();
    assertThatThrownBy(() -> all.connection("support-slack")).isInstanceOf(ConnectionsException.class)
        .hasMessageContaining("no connection named 'support-slack'");
  }

  @Test
  void fileReadableByOthersFailsStartUpSayingWhy() {
    Path file = ConnectionFiles.write(dir.resolve("connections.json"),
        ConnectionFiles.slackConnection("support-slack", "http://x", TOKEN).encode(), "rw-r--r--");
    assertThatThrownBy(() -> Connections.load(env(file))).isInstanceOf(ConnectionsException.class)
        .hasMessageContaining(file.toString()).hasMessageContaining("0644").hasMessageContaining("owner only")
        .hasMessageNotContaining(TOKEN);
  }

  @Test
  void symlinkedFileFailsStartUpEvenWhenItsTargetIsPrivate() throws Exception {
    Path target = privateFile(ConnectionFiles.slackConnection("support-slack", "http://x", TOKEN));
    Path link = Files.createSymbolicLink(dir.resolve("link.json"), target);
    assertThatThrownBy(() -> Connections.load(env(link))).isInstanceOf(ConnectionsException.class)
        .hasMessageContaining("symbolic link");
  }

  @Test
  void directoryInsteadOfFileFailsStartUp() throws Exception {
    Path sub = Files.createDirectory(dir.resolve("conf.json"));
    assertThatThrownBy(() -> Connections.load(env(sub))).isInstanceOf(ConnectionsException.class)
        .hasMessageContaining("not a regular file");
  }

  @Test
  void invalidJsonFailsStartUpWithoutQuotingTheFile() {
    Path file = ConnectionFiles.write(dir.resolve("connections.json"),
        "{\"connections\": {\"support-slack\": {\"credentials\": {\"botToken\": \"" + TOKEN + "\"", "rw-------");
    assertThatThrownBy(() -> Connections.load(env(file))).isInstanceOf(ConnectionsException.class)
        .hasMessageContaining("not a valid JSON object").hasMessageNotContaining(TOKEN);
  }

  @Test
  void missingConnectorFieldIsNamed() {
    JsonObject content = ConnectionFiles.slackConnection("support-slack", "http://x", TOKEN);
    content.getJsonObject("connections").getJsonObject("support-slack").remove("connector");
    Path file = privateFile(content);
    assertThatThrownBy(() -> Connections.load(env(file))).isInstanceOf(ConnectionsException.class)
        .hasMessageContaining("connection 'support-slack'").hasMessageContaining("field 'connector'");
  }

  @Test
  void unknownFieldAndNonStringCredentialAreNamed() {
    JsonObject content = ConnectionFiles.slackConnection("support-slack", "http://x", TOKEN);
    content.getJsonObject("connections").getJsonObject("support-slack").put("baseUrl", "http://y");
    assertThatThrownBy(() -> Connections.load(env(privateFile(content)))).isInstanceOf(ConnectionsException.class)
        .hasMessageContaining("unknown field 'baseUrl'");
    JsonObject numeric = ConnectionFiles.slackConnection("support-slack", "http://x", TOKEN);
    numeric.getJsonObject("connections").getJsonObject("support-slack").getJsonObject("credentials")
        .put("botToken", 42);
    assertThatThrownBy(() -> Connections.load(env(privateFile(numeric)))).isInstanceOf(ConnectionsException.class)
        .hasMessageContaining("field 'credentials.botToken'");
  }

  @Test
  void badExpiryIsNamed() {
    JsonObject content = ConnectionFiles.slackConnection("support-slack", "http://x", TOKEN);
    content.getJsonObject("connections").getJsonObject("support-slack").put("expiresAt", "tomorrow");
    assertThatThrownBy(() -> Connections.load(env(privateFile(content)))).isInstanceOf(ConnectionsException.class)
        .hasMessageContaining("field 'expiresAt'");
  }

  @Test
  void rotatedCredentialInTheFileIsUsedWithoutReloading() {
    Path file = privateFile(ConnectionFiles.slackConnection("support-slack", "http://x", TOKEN));
    Connection c = Connections.load(env(file)).connection("support-slack");
    ConnectionFiles.writePrivate(file, ConnectionFiles.slackConnection("support-slack", "http://x", "xoxb-rotated"));
    assertThat(c.revealCredential("botToken")).isEqualTo("xoxb-rotated");
    assertThat(c.credential("botToken").reveal()).isEqualTo("xoxb-rotated");
  }

  @Test
  void expiredCredentialsAreRefusedBeforeUseAndRenewalNeedsNoRestart() {
    JsonObject content = ConnectionFiles.slackConnection("support-slack", "http://x", TOKEN);
    content.getJsonObject("connections").getJsonObject("support-slack").put("expiresAt", "2020-01-01T00:00:00Z");
    Path file = privateFile(content);
    Connection c = Connections.load(env(file)).connection("support-slack");
    assertThatThrownBy(() -> c.revealCredential("botToken")).isInstanceOf(ToolNotSentException.class)
        .hasMessageContaining("expired at 2020-01-01T00:00:00Z").hasMessageNotContaining(TOKEN);
    content.getJsonObject("connections").getJsonObject("support-slack").put("expiresAt", "2999-01-01T00:00:00Z");
    ConnectionFiles.writePrivate(file, content);
    assertThat(c.revealCredential("botToken")).isEqualTo(TOKEN);
  }

  @Test
  void fileLoosenedAfterStartUpRefusesTheNextCredentialRead() throws Exception {
    Path file = privateFile(ConnectionFiles.slackConnection("support-slack", "http://x", TOKEN));
    Connection c = Connections.load(env(file)).connection("support-slack");
    Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-rw-rw-"));
    assertThatThrownBy(() -> c.revealCredential("botToken")).isInstanceOf(ToolNotSentException.class)
        .hasMessageNotContaining(TOKEN);
  }

  @Test
  void environmentVariablesDefineAConnection() {
    Map<String, String> env = new HashMap<>(env(dir.resolve("none.json")));
    env.put("RATCHET_CONNECTION_SUPPORT_SLACK_CONNECTOR", "slack");
    env.put("RATCHET_CONNECTION_SUPPORT_SLACK_CONFIG_BASE_URL", "http://localhost:2/api");
    env.put("RATCHET_CONNECTION_SUPPORT_SLACK_CREDENTIAL_BOT_TOKEN", TOKEN);
    env.put("RATCHET_CONNECTION_SUPPORT_CONNECTOR", "openapi");
    env.put("RATCHET_CONNECTION_SUPPORT_CONFIG_AUTH", "bearer");
    Connections all = Connections.load(env);
    Connection c = all.connection("support-slack");
    assertThat(c.connectorId()).isEqualTo("slack");
    assertThat(c.config()).isEqualTo(new JsonObject().put("baseUrl", "http://localhost:2/api"));
    assertThat(c.revealCredential("botToken")).isEqualTo(TOKEN);
    assertThat(c.toString()).doesNotContain(TOKEN);
    assertThat(all.connection("support").config().getString("auth")).isEqualTo("bearer");
    // the environment is read again at every use
    env.put("RATCHET_CONNECTION_SUPPORT_SLACK_CREDENTIAL_BOT_TOKEN", "xoxb-rotated");
    assertThat(c.revealCredential("botToken")).isEqualTo("xoxb-rotated");
  }

  @Test
  void environmentVariableOfNoConnectionOrUnknownFieldFailsNamingIt() {
    Map<String, String> env = new HashMap<>(env(dir.resolve("none.json")));
    env.put("RATCHET_CONNECTION_SUPPORT_SLACK_CREDENTIAL_BOT_TOKEN", TOKEN);
    assertThatThrownBy(() -> Connections.load(env)).isInstanceOf(ConnectionsException.class)
        .hasMessageContaining("RATCHET_CONNECTION_SUPPORT_SLACK_CREDENTIAL_BOT_TOKEN").hasMessageNotContaining(TOKEN);
    env.put("RATCHET_CONNECTION_SUPPORT_SLACK_CONNECTOR", "slack");
    env.put("RATCHET_CONNECTION_SUPPORT_SLACK_PASSWORD", "x");
    assertThatThrownBy(() -> Connections.load(env)).isInstanceOf(ConnectionsException.class)
        .hasMessageContaining("RATCHET_CONNECTION_SUPPORT_SLACK_PASSWORD").hasMessageContaining("unknown field");
  }

  @Test
  void oneConnectionInBothFileAndEnvironmentIsAnError() {
    Path file = privateFile(ConnectionFiles.slackConnection("support-slack", "http://x", TOKEN));
    Map<String, String> env = env(file);
    env.put("RATCHET_CONNECTION_SUPPORT_SLACK_CONNECTOR", "slack");
    env.put("RATCHET_CONNECTION_SUPPORT_SLACK_CREDENTIAL_BOT_TOKEN", TOKEN);
    assertThatThrownBy(() -> Connections.load(env)).isInstanceOf(ConnectionsException.class)
        .hasMessageContaining("'support-slack' is configured both").hasMessageNotContaining(TOKEN);
  }

  @Test
  void exampleConnectionsFileIsValid() throws Exception {
    Path example = Path.of("..", "conf", "connections.example.json");
    Path copy = ConnectionFiles.write(dir.resolve("connections.json"), Files.readString(example), "rw-------");
    Connections all = Connections.load(env(copy));
    assertThat(all.names()).contains("support-slack");
    io.vertx.core.Vertx vertx = io.vertx.core.Vertx.vertx();
    try {
      SlackConnector.connect(vertx, all.connection("support-slack")).close();
    } finally {
      await(vertx.close());
    }
  }
}
