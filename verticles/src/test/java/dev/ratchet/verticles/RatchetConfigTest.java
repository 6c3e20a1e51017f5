package dev.ratchet.verticles;

import dev.ratchet.runtime.journal.JournalOptions;
import dev.ratchet.runtime.journal.RedisTopology;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RatchetConfigTest {

  @Test
  void theShippedDefaultsAreTheDocumentedConfFile() throws IOException {
    JsonObject documented = new JsonObject(Files.readString(Path.of("../conf/ratchet.json")));
    assertThat(RatchetConfig.defaults()).isEqualTo(documented);
  }

  @Test
  void aFileOverlaysTheDefaultsAndEnvironmentVariablesOverlayTheFile(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("ratchet.json");
    Files.writeString(file, "{\"redis\":{\"url\":\"redis://from-file:6379\"},\"engine\":{\"maxResultBytes\":1000}}");
    JsonObject cfg = RatchetConfig.load(file, Map.of("RATCHET_REDIS_URL", "redis://from-env:6379",
        "RATCHET_HTTP_PORT", "9090"));
    assertThat(cfg.getJsonObject("redis").getString("url")).isEqualTo("redis://from-env:6379");
    assertThat(cfg.getJsonObject("engine").getInteger("maxResultBytes")).isEqualTo(1000);
    assertThat(cfg.getJsonObject("engine").getLong("journalRetryMillis")).isEqualTo(300000L);
    assertThat(cfg.getJsonObject("http").getInteger("port")).isEqualTo(9090);
    assertThat(RatchetOptions.fromConfig(cfg).engine().maxResultBytes()).isEqualTo(1000);
  }

  @Test
  void aClusterOrSentinelAndTheReplicasEachStepWaitsForAreReadIntoTheJournalsOptions(@TempDir Path dir)
      throws IOException {
    Path file = dir.resolve("ratchet.json");
    Files.writeString(file, "{\"redis\":{\"type\":\"sentinel\",\"endpoints\":[\"redis://s1:26379\",\"redis://s2:26379\"],"
        + "\"masterName\":\"journal\"},\"journal\":{\"waitReplicas\":1,\"waitTimeoutMillis\":250}}");
    JournalOptions sentinel = RatchetOptions.fromConfig(RatchetConfig.load(file, Map.of())).journalOptions();
    assertThat(sentinel.topology().kind()).isEqualTo(RedisTopology.Kind.SENTINEL);
    assertThat(sentinel.topology().endpoints()).containsExactly("redis://s1:26379", "redis://s2:26379");
    assertThat(sentinel.topology().masterName()).isEqualTo("journal");
    assertThat(sentinel.waitReplicas()).isEqualTo(1);
    assertThat(sentinel.waitTimeoutMillis()).isEqualTo(250);

    JournalOptions cluster = RatchetOptions.fromConfig(RatchetConfig.load(null, Map.of("RATCHET_REDIS_TYPE", "cluster",
        "RATCHET_REDIS_ENDPOINTS", "redis://a:7000, redis://b:7001"))).journalOptions();
    assertThat(cluster.topology().isCluster()).isTrue();
    assertThat(cluster.topology().endpoints()).containsExactly("redis://a:7000", "redis://b:7001");
    assertThat(cluster.waitReplicas()).isZero();

    Files.writeString(file, "{\"redis\":{\"type\":\"replicated\"}}");
    assertThatThrownBy(() -> RatchetOptions.fromConfig(RatchetConfig.load(file, Map.of())))
        .hasMessageContaining("redis.type is standalone, cluster or sentinel, not 'replicated'");
  }

  @Test
  void badSettingsAreRefusedWithAMessageNamingThem(@TempDir Path dir) throws IOException {
    assertThatThrownBy(() -> RatchetConfig.load(null, Map.of("RATCHET_HTTP_PORT", "eighty")))
        .hasMessageContaining("RATCHET_HTTP_PORT");
    Path file = dir.resolve("broken.json");
    Files.writeString(file, "{ not json");
    assertThatThrownBy(() -> RatchetConfig.load(file, Map.of())).hasMessageContaining(file.toString());
  }
}
