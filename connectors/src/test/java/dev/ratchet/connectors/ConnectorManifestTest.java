package dev.ratchet.connectors;

import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RetryPolicy;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConnectorManifestTest {

  @TempDir
  Path dir;

  static JsonObject op(String name, String kind) {
    return new JsonObject().put("name", name).put("kind", kind).put("description", "does " + name)
        .put("inputSchema", new JsonObject().put("type", "object"));
  }

  static JsonObject manifest(JsonObject... ops) {
    return new JsonObject().put("connector", "shop").put("version", "1.0.0").put("operations", new JsonArray(
        java.util.List.of((Object[]) ops)));
  }

  private Path file(JsonObject json) throws Exception {
    Path f = dir.resolve("ratchet-connector.json");
    Files.writeString(f, json.encodePrettily());
    return f;
  }

  @Test
  void slackManifestShippedOnTheClasspathLoadsWithItsFiveOperations() {
    ConnectorManifest m = ConnectorManifest.loadResource("/dev/ratchet/connectors/slack/ratchet-connector.json");
    assertThat(m.connectorId()).isEqualTo("slack");
    assertThat(m.operations()).extracting(OperationDefinition::name).containsExactly("postChannelMessage",
        "postThreadReply", "addReaction", "listThreadMessages", "getThreadReply");
    assertThat(m.operation("postThreadReply").effectClass()).isEqualTo(EffectClass.NON_IDEMPOTENT_WRITE);
    assertThat(m.operation("addReaction").effectClass()).isEqualTo(EffectClass.IDEMPOTENT_WRITE);
    assertThat(m.operation("listThreadMessages").effectClass()).isEqualTo(EffectClass.READ);
    assertThat(m.operation("postThreadReply").timeout()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void effectClassComesFromKindAndAgentRetryOnly() throws Exception {
    ConnectorManifest m = ConnectorManifest.load(file(manifest(op("getOrder", "query"),
        op("setNote", "mutation").put("agent", new JsonObject().put("retry", "safe")),
        op("refund", "mutation").put("retry", new JsonObject().put("maxAttempts", 5)),
        op("cancel", "mutation").put("agent", new JsonObject().put("retry", "unsafe")))));
    assertThat(m.operation("getOrder").effectClass()).isEqualTo(EffectClass.READ);
    assertThat(m.operation("setNote").effectClass()).isEqualTo(EffectClass.IDEMPOTENT_WRITE);
    assertThat(m.operation("refund").effectClass()).isEqualTo(EffectClass.NON_IDEMPOTENT_WRITE);
    assertThat(m.operation("cancel").effectClass()).isEqualTo(EffectClass.NON_IDEMPOTENT_WRITE);
    // a single-attempt write never gets retries, whatever its manifest says
    assertThat(m.operation("refund").retryPolicy().maxAttempts()).isEqualTo(5);
    assertThat(m.operation("refund").effectiveRetryPolicy()).isEqualTo(RetryPolicy.NONE);
  }

  @Test
  void agentSettingsDefaultToNotExposedNoApproval() throws Exception {
    ConnectorManifest m = ConnectorManifest.load(file(manifest(op("getOrder", "query"))));
    AgentSettings agent = m.operation("getOrder").agent();
    assertThat(agent.exposed()).isFalse();
    assertThat(agent.approvalRecommended()).isFalse();
    assertThat(agent.retrySafe()).isFalse();
  }

  @Test
  void branchesMapToOutcomesWithDefaultsAndOverrides() throws Exception {
    ConnectorManifest m = ConnectorManifest.load(file(manifest(op("getOrder", "query"),
        op("refund", "mutation").put("agent", new JsonObject().put("branches",
            new JsonObject().put("already_refunded", "succeeded").put("uncertain", "failed"))))));
    OperationDefinition query = m.operation("getOrder");
    OperationDefinition mutation = m.operation("refund");
    assertThat(mutation.outcomeOf("success")).isEqualTo(Outcome.SUCCEEDED);
    assertThat(mutation.outcomeOf("rejected")).isEqualTo(Outcome.FAILED);
    assertThat(mutation.outcomeOf("defect")).isEqualTo(Outcome.FAILED);
    assertThat(mutation.outcomeOf("unknown")).isEqualTo(Outcome.OUTCOME_UNKNOWN);
    assertThat(mutation.outcomeOf("order_locked")).isEqualTo(Outcome.OUTCOME_UNKNOWN);
    assertThat(mutation.outcomeOf("already_refunded")).isEqualTo(Outcome.SUCCEEDED);
    assertThat(mutation.outcomeOf("uncertain")).isEqualTo(Outcome.FAILED);
    assertThat(query.outcomeOf("uncertain")).isEqualTo(Outcome.OUTCOME_UNKNOWN);
    assertThat(query.outcomeOf("not_found")).isEqualTo(Outcome.FAILED);
  }

  @Test
  void manifestThatIsNotJsonFailsNamingTheFile() throws Exception {
    Path f = dir.resolve("broken.json");
    Files.writeString(f, "{ \"connector\": \"shop\", ");
    assertThatThrownBy(() -> ConnectorManifest.load(f)).isInstanceOf(ManifestException.class)
        .hasMessageContaining(f.toString()).hasMessageContaining("not a JSON object");
  }

  @Test
  void invalidFieldIsReportedWithFileOperationAndField() throws Exception {
    Path f = file(manifest(op("getOrder", "query"), op("refund", "mutation")
        .put("agent", new JsonObject().put("retry", "sometimes"))));
    assertThatThrownBy(() -> ConnectorManifest.load(f)).isInstanceOf(ManifestException.class)
        .hasMessageContaining(f.toString()).hasMessageContaining("operation 'refund'")
        .hasMessageContaining("field 'agent.retry'");
  }

  @Test
  void missingRequiredFieldOfAnOperationIsNamed() throws Exception {
    JsonObject noKind = op("refund", "mutation");
    noKind.remove("kind");
    Path f = file(manifest(noKind));
    assertThatThrownBy(() -> ConnectorManifest.load(f)).isInstanceOf(ManifestException.class)
        .hasMessageContaining("operation 'refund'").hasMessageContaining("kind");
  }

  @Test
  void unknownKindIsRefused() throws Exception {
    Path f = file(manifest(op("refund", "command")));
    assertThatThrownBy(() -> ConnectorManifest.load(f)).isInstanceOf(ManifestException.class)
        .hasMessageContaining("operation 'refund'").hasMessageContaining("field 'kind'");
  }

  @Test
  void unknownTopLevelFieldAndMissingOperationsAreRefused() throws Exception {
    JsonObject m = manifest(op("a", "query")).put("operashuns", new JsonArray());
    assertThatThrownBy(() -> ConnectorManifest.load(file(m))).isInstanceOf(ManifestException.class)
        .hasMessageContaining("operashuns");
    JsonObject none = new JsonObject().put("connector", "shop").put("version", "1");
    assertThatThrownBy(() -> ConnectorManifest.load(file(none))).isInstanceOf(ManifestException.class)
        .hasMessageContaining("operations");
  }

  @Test
  void branchOutcomeMustBeARecordedOutcome() throws Exception {
    Path f = file(manifest(op("refund", "mutation").put("agent", new JsonObject()
        .put("branches", new JsonObject().put("already_refunded", "fine")))));
    assertThatThrownBy(() -> ConnectorManifest.load(f)).isInstanceOf(ManifestException.class)
        .hasMessageContaining("operation 'refund'").hasMessageContaining("agent.branches.already_refunded");
  }

  @Test
  void retrySafeOnAQueryIsRefusedAsMeaningless() throws Exception {
    Path f = file(manifest(op("getOrder", "query").put("agent", new JsonObject().put("retry", "safe"))));
    assertThatThrownBy(() -> ConnectorManifest.load(f)).isInstanceOf(ManifestException.class)
        .hasMessageContaining("operation 'getOrder'").hasMessageContaining("field 'agent.retry'");
  }

  @Test
  void operationDefinedTwiceIsRefused() throws Exception {
    Path f = file(manifest(op("getOrder", "query"), op("getOrder", "query")));
    assertThatThrownBy(() -> ConnectorManifest.load(f)).isInstanceOf(ManifestException.class)
        .hasMessageContaining("'getOrder' is defined twice");
  }

  @Test
  void unknownOperationNameListsTheKnownOnes() {
    ConnectorManifest m = ConnectorManifest.loadResource("/dev/ratchet/connectors/slack/ratchet-connector.json");
    assertThatThrownBy(() -> m.operation("deleteEverything")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'slack'").hasMessageContaining("deleteEverything").hasMessageContaining("postThreadReply");
  }

  @Test
  void missingClasspathManifestIsReported() {
    assertThatThrownBy(() -> ConnectorManifest.loadResource("/nope/ratchet-connector.json"))
        .isInstanceOf(ManifestException.class).hasMessageContaining("classpath:/nope/ratchet-connector.json");
  }
}
