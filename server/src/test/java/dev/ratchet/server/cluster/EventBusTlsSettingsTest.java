package dev.ratchet.server.cluster;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code cluster.tls} as {@code run} reads it: clear refusals, and never a password in what it says. */
class EventBusTlsSettingsTest {

  @TempDir
  Path dir;

  private static JsonObject config(JsonObject tls) {
    return new JsonObject().put("cluster", new JsonObject().put("tls", tls));
  }

  @Test
  void aKeyStoreWithoutATrustStoreIsRefusedWithWhatIsMissing() throws Exception {
    Path store = Files.writeString(dir.resolve("member.p12"), "x");

    assertThatThrownBy(() -> ClusterSettings.from(config(new JsonObject().put("keyStore", store.toString())), true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("cluster.tls.trustStore is required with cluster.tls.keyStore");
  }

  @Test
  void aStoreThatCannotBeReadIsNamed() {
    JsonObject tls = new JsonObject().put("keyStore", dir.resolve("missing.p12").toString())
        .put("trustStore", dir.resolve("missing.p12").toString());

    assertThatThrownBy(() -> ClusterSettings.from(config(tls), true))
        .hasMessage("cluster.tls: cannot read " + dir.resolve("missing.p12"));
  }

  @Test
  void withoutAKeyStoreTheEventBusRunsWithoutTlsAndWithOneItsDescriptionLeavesThePasswordsOut() throws Exception {
    assertThat(ClusterSettings.from(new JsonObject(), true).tls()).isNull();
    Path store = Files.writeString(dir.resolve("member.p12"), "x");
    ClusterSettings settings = ClusterSettings.from(config(new JsonObject().put("keyStore", store.toString())
        .put("trustStore", store.toString()).put("keyStorePassword", "secret-one")
        .put("trustStorePassword", "secret-two")), true);

    assertThat(settings.tls().apply(new io.vertx.core.eventbus.EventBusOptions()).isSsl()).isTrue();
    assertThat(settings.describe()).contains("the event bus over mutual TLS")
        .doesNotContain("secret-one").doesNotContain("secret-two");
    assertThat(settings.toString()).doesNotContain("secret-one").doesNotContain("secret-two");
  }
}
