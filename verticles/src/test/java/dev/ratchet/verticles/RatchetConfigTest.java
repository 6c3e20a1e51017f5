package dev.ratchet.verticles;

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
  void badSettingsAreRefusedWithAMessageNamingThem(@TempDir Path dir) throws IOException {
    assertThatThrownBy(() -> RatchetConfig.load(null, Map.of("RATCHET_HTTP_PORT", "eighty")))
        .hasMessageContaining("RATCHET_HTTP_PORT");
    Path file = dir.resolve("broken.json");
    Files.writeString(file, "{ not json");
    assertThatThrownBy(() -> RatchetConfig.load(file, Map.of())).hasMessageContaining(file.toString());
  }
}
