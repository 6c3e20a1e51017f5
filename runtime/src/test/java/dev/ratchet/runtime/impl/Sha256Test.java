package dev.ratchet.runtime.impl;

import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.IdempotencyKey;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

class Sha256Test {

  private static String reference(String text) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void hashesEveryTextAsTheJdkHashesItsUtf8() throws Exception {
    Random random = new Random(7);
    String[] alphabet = {"a", "Z", "0", "\u0000", "\n", "\u00e9", "\u20ac", "\ud83d\ude00", "\ud800", "\"", "~"};
    for (int round = 0; round < 500; round++) {
      StringBuilder sb = new StringBuilder();
      int length = round < 490 ? random.nextInt(600) : 17_000 + random.nextInt(20_000);
      for (int i = 0; i < length; i++) {
        sb.append(random.nextInt(4) == 0 ? alphabet[random.nextInt(alphabet.length)] : "k");
      }
      String text = sb.toString();
      assertEquals(reference(text), Sha256.hex(text), "text of " + text.length() + " chars");
    }
  }

  @Test
  void partsAreHashedAsTheirJoinWithNulAndCutAfterThePrefix() throws Exception {
    String joined = "session-\u00fc" + '\u0000' + "turn-1" + '\u0000' + "12";
    assertEquals("call_" + reference(joined).substring(0, 24), Sha256.prefixedHex("call_", 24, "session-\u00fc", "turn-1", "12"));
    assertEquals(reference(""), Sha256.prefixedHex("", 64, ""));
  }

  @Test
  void callIdsAndIdempotencyKeysJournaledByEarlierReleasesDoNotChange() {
    // computed by the release before this digest: a call journaled then keeps its id and its key
    assertEquals("call_d0d7e45d46435297b9a5596e", CallId.of("session-1", "turn-1", 3).value());
    assertEquals("call_2b138612707828a8bb602287", CallId.of("sessi\u00f3n-\u00fc", "t\u00fbrn\u0001", 12).value());
    assertEquals("rk_48313959443afadc32eabc1ef4842610", IdempotencyKey.of(CallId.of("s", "t", 0), null).value());
    assertEquals("rk_86c1ed4f90fbf84492a06b00b3ba0453", IdempotencyKey.of(CallId.of("s", "t", 0), new JsonObject()).value());
    assertEquals("44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a", IdempotencyKey.argumentsHash(null));
  }
}
