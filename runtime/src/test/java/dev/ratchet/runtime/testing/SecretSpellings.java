package dev.ratchet.runtime.testing;

import io.vertx.core.json.Json;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The spellings of a secret a test greps for: as it is, JSON-escaped (as Jackson writes it, and
 * with {@code /} and non-ASCII escaped), URL-encoded (space as {@code +} and as {@code %20}, upper
 * and lower hex), base64 (standard and URL-safe) and hex. Written independently of the redactor,
 * so the two cannot share a blind spot by construction.
 */
public final class SecretSpellings {

  private SecretSpellings() {
  }

  public static List<String> of(String secret) {
    byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
    LinkedHashSet<String> forms = new LinkedHashSet<>();
    forms.add(secret);
    String jackson = Json.encode(secret);
    String escaped = jackson.substring(1, jackson.length() - 1);
    forms.add(escaped);
    forms.add(escaped.replace("/", "\\/"));
    forms.add(nonAsciiEscaped(escaped, false));
    forms.add(nonAsciiEscaped(escaped, true));
    String url = URLEncoder.encode(secret, StandardCharsets.UTF_8);
    forms.add(url);
    forms.add(url.replace("+", "%20"));
    forms.add(Pattern.compile("%[0-9A-F]{2}").matcher(url).replaceAll(m -> m.group().toLowerCase(Locale.ROOT)));
    forms.add(Base64.getEncoder().encodeToString(bytes));
    forms.add(Base64.getEncoder().withoutPadding().encodeToString(bytes));
    forms.add(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
    forms.add(HexFormat.of().formatHex(bytes));
    return new ArrayList<>(forms);
  }

  /** {@code prefix + secret} in base64, as in {@code Authorization: Basic base64(user:secret)}. */
  public static String embeddedBase64(String prefix, String secret) {
    return Base64.getEncoder().encodeToString((prefix + secret).getBytes(StandardCharsets.UTF_8));
  }

  /** The forms of {@code secret} found in {@code text}; empty when none is. */
  public static List<String> foundIn(String text, String secret) {
    List<String> found = new ArrayList<>();
    for (String form : of(secret)) {
      if (text.contains(form)) {
        found.add(form);
      }
    }
    return found;
  }

  private static String nonAsciiEscaped(String s, boolean upper) {
    StringBuilder sb = new StringBuilder();
    for (char c : s.toCharArray()) {
      if (c > 0x7e) {
        String hex = String.format(upper ? "%04X" : "%04x", (int) c);
        sb.append("\\u").append(hex);
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }
}
