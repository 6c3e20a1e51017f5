package dev.ratchet.connectors.mcp;

import dev.ratchet.runtime.Redaction;
import dev.ratchet.runtime.Secret;
import org.junit.jupiter.api.Test;

import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** A String given to an MCP server's configuration is a plain value, unless its name says it is a credential. */
class McpPlainValuesTest {

  private static String unique(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  @Test
  void aPlainEnvironmentValueIsShownAndNeverScrubbed() {
    String mode = unique("production");
    McpServerConfig config = McpServerConfig.stdio("plain", "server").env("MODE", mode).build();
    assertThat(config.plainEnv()).containsEntry("MODE", mode);
    assertThat(config.env()).doesNotContainKey("MODE");
    assertThat(config.toString()).contains("MODE=" + mode);
    assertThat(Redaction.scrub(mode + " ready")).isEqualTo(mode + " ready");
  }

  @Test
  void aStringWhoseNameSaysCredentialIsASecretAllTheSame() {
    String token = unique("ghp");
    String key = unique("key");
    McpServerConfig config = McpServerConfig.stdio("named", "server").env("GITHUB_TOKEN", token)
        .env("openaiApiKey", key).env("KEYBOARD_LAYOUT", "de-neo-layout").build();
    assertThat(config.env()).containsKeys("GITHUB_TOKEN", "openaiApiKey");
    assertThat(config.plainEnv()).containsOnlyKeys("KEYBOARD_LAYOUT");
    assertThat(config.toString()).contains("GITHUB_TOKEN=***").doesNotContain(token).doesNotContain(key);
    assertThat(Redaction.scrub("got " + token + " and " + key)).isEqualTo("got *** and ***");
  }

  @Test
  void headersFollowTheSameRule() {
    String bearer = "Bearer " + unique("tok");
    String apiKey = unique("apikey");
    String lang = unique("fr-production");
    McpServerConfig config = McpServerConfig.http("web", "http://127.0.0.1:1/mcp")
        .header("Authorization", bearer).header("X-Api-Key", apiKey).header("Accept-Language", lang)
        .header("X-Tenant", Secret.of(unique("tenant"))).build();
    assertThat(config.headers()).containsOnlyKeys("Authorization", "X-Api-Key", "X-Tenant");
    assertThat(config.plainHeaders()).containsEntry("Accept-Language", lang);
    assertThat(Redaction.scrub(lang)).isEqualTo(lang);
    assertThat(Redaction.scrub(bearer + " " + apiKey)).isEqualTo("*** ***");
  }

  @Test
  void aSecretReplacesAPlainValueOfTheSameNameAndBack() {
    McpServerConfig.Builder b = McpServerConfig.stdio("both", "server").env("REGION", "eu-west-1");
    b.env("REGION", Secret.of(unique("region")));
    assertThat(b.build().plainEnv()).isEmpty();
    b.env("REGION", "eu-west-1");
    assertThat(b.build().env()).isEmpty();
  }
}
