package dev.ratchet.runtime;

import dev.ratchet.runtime.impl.RedactingOutputStream;
import dev.ratchet.runtime.impl.SecretRegistry;
import dev.ratchet.runtime.testing.SecretSpellings;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** The process's redactor: every form of every revealed secret, rotated ones included; never plain text. */
class SecretRedactionTest {

  /** Unique per test, since the redactor is one per process; with the characters that encoders change. */
  private static String awkwardSecret() {
    return "sk-\"q\"/p\\b+ é~" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** {@code prefix + secret} base64-encoded, as in an {@code Authorization: Basic} header. */
  private static String embedded(String prefix, String secret) {
    return Base64.getEncoder().encodeToString((prefix + secret).getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void everyFormOfARevealedSecretIsScrubbed() {
    String value = awkwardSecret();
    Secret.from(() -> value).reveal();
    for (String form : SecretSpellings.of(value)) {
      String scrubbed = Redaction.scrub("answer: [" + form + "] done");
      assertThat(scrubbed).as(form).isEqualTo("answer: [***] done");
    }
  }

  @Test
  void aSecretInsideALongerBase64TextIsScrubbedAtEveryAlignment() {
    String value = "tok-" + UUID.randomUUID();
    Secret.of(value).reveal();
    // 0, 1 and 2 bytes before the secret in its 3-byte group: each encodes the secret differently
    for (String prefix : List.of("bot:", "user:", "robot:")) {
      String header = "Authorization: Basic " + embedded(prefix, value + "@example");
      String scrubbed = Redaction.scrub(header);
      assertThat(scrubbed).as(prefix).contains("***");
      // what is left around the mark are the prefix's and suffix's own characters and a few edge ones
      for (String part : scrubbed.substring("Authorization: Basic ".length()).split("\\*\\*\\*")) {
        assertThat(part.length()).as(prefix + " leftover " + part).isLessThanOrEqualTo(16);
      }
      assertThat(scrubbed).doesNotContain(embedded(prefix, value));
    }
  }

  @Test
  void theEarlierValuesOfARotatedSecretAreStillScrubbed() {
    String base = "rotating-" + UUID.randomUUID().toString().substring(0, 8) + "-v";
    AtomicReference<String> current = new AtomicReference<>();
    Secret secret = Secret.from(current::get);
    for (int v = 1; v <= 5; v++) {
      current.set(base + v);
      secret.reveal();
    }
    // the last 4 values are kept: a child started before a rotation still holds an old one
    for (int v = 2; v <= 5; v++) {
      assertThat(Redaction.scrub("was " + base + v)).isEqualTo("was ***");
    }
    assertThat(Redaction.scrub("was " + base + 1)).as("older than the history").isEqualTo("was " + base + 1);
  }

  @Test
  void aSecretCopyWithAnExpiryRotatesWithTheOriginal() {
    String base = "copy-" + UUID.randomUUID().toString().substring(0, 8) + "-v";
    AtomicReference<String> current = new AtomicReference<>(base + 1);
    Secret secret = Secret.from(current::get);
    secret.reveal();
    Secret copy = secret.expiringAt(System.currentTimeMillis() + 60_000);
    current.set(base + 2);
    copy.reveal();
    assertThat(Redaction.scrub(base + 1 + " " + base + 2)).isEqualTo("*** ***");
  }

  @Test
  void valuesShorterThanTheMinimumAreNeverScrubbed() {
    Secret.of("ab7").reveal();
    assertThat(Redaction.MIN_LENGTH).isEqualTo(4);
    assertThat(Redaction.scrub("tab7 lab7 ab7")).isEqualTo("tab7 lab7 ab7");
  }

  @Test
  void textWithoutSecretsIsReturnedAsItIs() {
    String text = "production ready: 42 orders, base64 aGVsbG8gd29ybGQ=";
    assertThat(Redaction.scrub(text)).isSameAs(text);
    JsonObject json = new JsonObject().put("mode", "production").put("n", 3);
    assertThat(Redaction.scrubValue(json)).isSameAs(json);
  }

  @Test
  void keysAndValuesOfNestedJsonAndOfJavaObjectsAreScrubbed() {
    String value = "nested-" + UUID.randomUUID();
    Secret.of(value);
    JsonObject json = new JsonObject().put("env", new JsonObject().put("TOKEN", value).put(value, "as a key"))
        .put("list", new JsonArray().add("Bearer " + value).add(7));
    Object scrubbed = Redaction.scrubValue(json);
    assertThat(Json.encode(scrubbed)).doesNotContain(value).contains("\"TOKEN\":\"***\"").contains("Bearer ***");

    record Reply(String note, int count) {
    }
    Object fromRecord = Redaction.scrubValue(new Reply("key is " + value, 2));
    assertThat(Json.encode(fromRecord)).doesNotContain(value).contains("key is ***");
  }

  @Test
  void aToolResultsValueAndErrorAreScrubbed() {
    String value = "result-" + UUID.randomUUID();
    Secret.of(value);
    ToolResult ok = Redaction.scrub(ToolResult.success(new JsonObject().put("echo", value)));
    assertThat(Json.encode(ok.value())).doesNotContain(value);
    ToolResult failed = Redaction.scrub(ToolResult.rejected("401 for key " + value));
    assertThat(failed.error()).isEqualTo("401 for key ***");
  }

  @Test
  void aStreamScrubsEachLineEvenWhenTheSecretArrivesInPieces() {
    String value = "stream-" + UUID.randomUUID();
    Secret.of(value);
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(new RedactingOutputStream(sink, StandardCharsets.UTF_8,
        SecretRegistry.global()), false, StandardCharsets.UTF_8);
    out.print("token was ");
    out.print(value.substring(0, 10));
    out.print(value.substring(10));
    out.println(" and " + Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)));
    out.println("plain line");
    assertThat(sink.toString(StandardCharsets.UTF_8)).isEqualTo("token was *** and ***" + System.lineSeparator()
        + "plain line" + System.lineSeparator());
  }
}
