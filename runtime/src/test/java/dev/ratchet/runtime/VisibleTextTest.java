package dev.ratchet.runtime;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a person is shown of text a model or a tool wrote: nothing invisible, nothing that reads as
 * another character, and text in any one script as written.
 */
class VisibleTextTest {

  @Test
  void invisibleCharactersShowAsEscapes() {
    assertThat(VisibleText.shown("pay \u202eevil\u202c")).isEqualTo("pay \\u202eevil\\u202c");
    assertThat(VisibleText.shown("\u2066a\u2069\u200b\u200c\u200d\u200e\u200f\u2060\ufeff\u00ad"))
        .isEqualTo("\\u2066a\\u2069\\u200b\\u200c\\u200d\\u200e\\u200f\\u2060\\ufeff\\u00ad");
    assertThat(VisibleText.shown("acct 12\u00a034")).isEqualTo("acct 12\\u00a034");
    assertThat(VisibleText.shown("id\udb40\udc41\udb40\udc7f")).as("tag characters, beyond the BMP")
        .isEqualTo("id\\u{e0041}\\u{e007f}");
    assertThat(VisibleText.shown("a\u001b[31mb\u007f\u0085\r")).isEqualTo("a\\x1b[31mb\\x7f\\u0085\\x0d");
    assertThat(VisibleText.shown("x\ud800y")).as("an unpaired surrogate").isEqualTo("x\\ud800y");
    assertThat(VisibleText.shown("\u3164\u115f\ufe0f\u034f\u2800")).isEqualTo("\\u3164\\u115f\\ufe0f\\u034f\\u2800");
  }

  @Test
  void lookAlikesShowAsEscapesAndTextInOneScriptAsWritten() {
    assertThat(VisibleText.shown("p\u0430ypal.com")).as("a Cyrillic a in a Latin word").isEqualTo("p\\u0430ypal.com");
    assertThat(VisibleText.shown("\u0440\u0430ypal")).isEqualTo("\\u0440\\u0430ypal");
    assertThat(VisibleText.shown("IBAN DE\uff11\uff12")).as("fullwidth digits").isEqualTo("IBAN DE\\uff11\\uff12");
    assertThat(VisibleText.shown("\ud835\udc00BC")).as("a mathematical capital A").isEqualTo("\\u{1d400}BC");
    assertThat(VisibleText.shown("12\u09ea5")).as("a Bengali four among ASCII digits").isEqualTo("12\\u09ea5");
    for (String fine : new String[] {"Привет, мир", "Καλημέρα", "東京タワーへ行く", "ABC漢字", "한국어 text", "naïve café",
        "e\u0301", "m² 5°C", "😀 👍🏽", "שלום", "مرحبا ١٢٣", "line one\nline\ttwo", "back\\slash"}) {
      assertThat(VisibleText.shown(fine)).as(fine).isEqualTo(fine);
      assertThat(VisibleText.unusual(fine)).as(fine).isFalse();
    }
    assertThat(VisibleText.unusual("p\u0430ypal")).isTrue();
    assertThat(VisibleText.unusual("a\u200bb")).isTrue();
  }

  @Test
  void forATerminalTheTextIsOneLineAndAnEscapeDiffersFromTextThatLooksLikeOne() {
    assertThat(VisibleText.escape("a\nb\tc\rd \\u202e \u202e")).isEqualTo("a\\nb\\tc\\rd \\\\u202e \\u202e");
    assertThat(VisibleText.escape(null)).isNull();
  }

  @Test
  void jsonStaysTheSameJsonWithItsUnusualCharactersEscaped() {
    String encoded = "{\"to\":\"p\u0430ypal\",\"note\":\"\u202e\udb40\udc41\"}";
    assertThat(VisibleText.json(encoded)).isEqualTo("{\"to\":\"p\\u0430ypal\",\"note\":\"\\u202e\\udb40\\udc41\"}");
    assertThat(new io.vertx.core.json.JsonObject(VisibleText.json(encoded)))
        .isEqualTo(new io.vertx.core.json.JsonObject(encoded));
  }
}
