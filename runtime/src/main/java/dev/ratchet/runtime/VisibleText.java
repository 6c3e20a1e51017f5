package dev.ratchet.runtime;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.text.Normalizer;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Text from a model, a tool or a person made safe to show to the person who acts on it: what
 * would not show as itself is shown as an escape, so that an argument cannot display as another
 * value than the one sent. The one rule of {@code ratchet inspect}, the dashboard (whose
 * {@code assets/visible.js} follows it, checked against this class) and the log lines that carry
 * such text; docs/SECURITY.md describes it.
 * <ul>
 *   <li><b>Invisible</b>: control characters (C0, DEL, C1), format characters (bidirectional
 *   embeddings, overrides and isolates, zero-width space, joiners and marks, word joiner, the BOM,
 *   the soft hyphen, tag characters), line and paragraph separators, every space other than
 *   U+0020, private-use code points, unpaired surrogates, and the invisible fillers and
 *   selectors that have another category (Hangul fillers, the combining grapheme joiner, variation
 *   selectors, Mongolian free variation selectors, Khmer inherent vowels, the braille blank).</li>
 *   <li><b>Look-alike</b>: a letter or digit that compatibility normalization (NFKC) turns into
 *   ASCII letters or digits (fullwidth {@code Ａ１}, mathematical {@code 𝐀}); every non-ASCII
 *   character of a word (a run of letters, marks and digits) whose letters come from scripts that
 *   are not written together ({@code pаypal} with a Cyrillic {@code а}; Latin with Han, Hiragana,
 *   Katakana, Bopomofo or Hangul, as Chinese, Japanese and Korean mix them, is fine); and every
 *   non-ASCII digit of a word that also holds ASCII digits.</li>
 * </ul>
 * Such a character shows as <code>&#92;x1b</code> (below U+0080), <code>&#92;u202e</code> (the rest
 * of the Basic Multilingual Plane) or <code>&#92;u{e0041}</code> (beyond it). Text in any one script shows as written.
 */
public final class VisibleText {

  private static final Set<Character.UnicodeScript> NOT_SCRIPTS = EnumSet.of(Character.UnicodeScript.COMMON,
      Character.UnicodeScript.INHERITED, Character.UnicodeScript.UNKNOWN);
  private static final List<Set<Character.UnicodeScript>> WRITTEN_TOGETHER = List.of(
      EnumSet.of(Character.UnicodeScript.LATIN, Character.UnicodeScript.HAN, Character.UnicodeScript.HIRAGANA,
          Character.UnicodeScript.KATAKANA),
      EnumSet.of(Character.UnicodeScript.LATIN, Character.UnicodeScript.HAN, Character.UnicodeScript.BOPOMOFO),
      EnumSet.of(Character.UnicodeScript.LATIN, Character.UnicodeScript.HAN, Character.UnicodeScript.HANGUL));

  /** The invisible code points whose category does not say so, as inclusive ranges. */
  private static final int[][] INVISIBLE_OTHERWISE = {{0x034f, 0x034f}, {0x115f, 0x1160}, {0x17b4, 0x17b5},
      {0x180b, 0x180f}, {0x2800, 0x2800}, {0x3164, 0x3164}, {0xfe00, 0xfe0f}, {0xffa0, 0xffa0}, {0xe0100, 0xe01ef}};

  private VisibleText() {
  }

  /**
   * The rule's data, for the dashboard's half of it ({@code assets/visible.js}, through the
   * generated vocabulary): the scripts by their Unicode names ({@code Old_Italic}), the sets of
   * scripts written together, and the invisible code points whose category does not say so.
   */
  public static JsonObject rules() {
    JsonArray scripts = new JsonArray();
    for (Character.UnicodeScript s : Character.UnicodeScript.values()) {
      if (!NOT_SCRIPTS.contains(s)) {
        scripts.add(unicodeName(s));
      }
    }
    JsonArray together = new JsonArray();
    WRITTEN_TOGETHER.forEach(set -> together.add(new JsonArray(set.stream().map(VisibleText::unicodeName)
        .toList())));
    JsonArray invisible = new JsonArray();
    for (int[] range : INVISIBLE_OTHERWISE) {
      invisible.add(new JsonArray().add(range[0]).add(range[1]));
    }
    return new JsonObject().put("scripts", scripts).put("writtenTogether", together)
        .put("invisible", invisible);
  }

  /** {@code OLD_ITALIC} as Unicode names it, {@code Old_Italic}. */
  private static String unicodeName(Character.UnicodeScript script) {
    StringBuilder out = new StringBuilder();
    for (String part : script.name().split("_")) {
      if (!out.isEmpty()) {
        out.append('_');
      }
      out.append(part.charAt(0)).append(part.substring(1).toLowerCase(Locale.ROOT));
    }
    return out.toString();
  }

  /**
   * For a terminal or a log line: one line whatever the text holds. Every invisible or look-alike
   * character escaped, and also line feed, carriage return and tab ({@code \n}, {@code \r},
   * {@code \t}), with each backslash doubled so that an escape and text that merely looks like one
   * differ. Null stays null.
   */
  public static String escape(String text) {
    return text == null ? null : render(text, true);
  }

  /**
   * For a page that shows text as written (the dashboard): every invisible or look-alike character
   * escaped; line feeds and tabs kept, backslashes as they are. Null stays null.
   */
  public static String shown(String text) {
    return text == null ? null : render(text, false);
  }

  /** Whether the text holds an invisible or look-alike character, which {@link #shown} escapes. */
  public static boolean unusual(String text) {
    if (text == null) {
      return false;
    }
    boolean[] marked = marks(text);
    for (int i = 0; i < marked.length; i++) {
      if (marked[i] && text.charAt(i) != '\n' && text.charAt(i) != '\t') {
        return true;
      }
    }
    return false;
  }

  /**
   * A line of JSON whose string values may hold such characters, with each of them as a
   * {@code \\uXXXX} escape (a pair of them beyond the Basic Multilingual Plane): the same JSON,
   * shown safely. The encoder has already escaped C0 controls, quotes and backslashes.
   */
  public static String json(String encoded) {
    StringBuilder out = new StringBuilder(encoded.length() + 16);
    boolean[] marked = marks(encoded);
    for (int i = 0; i < encoded.length(); ) {
      int cp = encoded.codePointAt(i);
      int n = Character.charCount(cp);
      if (marked[i]) {
        for (int j = i; j < i + n; j++) {
          out.append(String.format("\\u%04x", (int) encoded.charAt(j)));
        }
      } else {
        out.appendCodePoint(cp);
      }
      i += n;
    }
    return out.toString();
  }

  private static String render(String text, boolean oneLine) {
    boolean[] marked = marks(text);
    StringBuilder out = null;
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      int n = Character.charCount(cp);
      String replacement = null;
      if (cp == '\n' || cp == '\t') {
        replacement = oneLine ? (cp == '\n' ? "\\n" : "\\t") : null;
      } else if (cp == '\r' && oneLine) {
        replacement = "\\r";
      } else if (cp == '\\' && oneLine) {
        replacement = "\\\\";
      } else if (marked[i]) {
        replacement = cp < 0x80 ? String.format("\\x%02x", cp)
            : cp <= 0xffff ? String.format("\\u%04x", cp) : String.format("\\u{%x}", cp);
      }
      if (replacement != null && out == null) {
        out = new StringBuilder(text.length() + 16).append(text, 0, i);
      }
      if (out != null) {
        if (replacement != null) {
          out.append(replacement);
        } else {
          out.appendCodePoint(cp);
        }
      }
      i += n;
    }
    return out == null ? text : out.toString();
  }

  /** For each char index that starts a code point: whether that code point is invisible or a look-alike. */
  private static boolean[] marks(String text) {
    boolean[] marked = new boolean[text.length()];
    int wordStart = -1;
    for (int i = 0; i <= text.length(); ) {
      int cp = i < text.length() ? text.codePointAt(i) : -1;
      boolean inWord = cp >= 0 && wordPart(cp);
      if (inWord && wordStart < 0) {
        wordStart = i;
      } else if (!inWord && wordStart >= 0) {
        markMixedWord(text, wordStart, i, marked);
        wordStart = -1;
      }
      if (cp < 0) {
        break;
      }
      if (invisible(cp) || compatibilityLookAlike(cp)) {
        marked[i] = true;
      }
      i += Character.charCount(cp);
    }
    return marked;
  }

  /** Whether the code point would not show as itself: see the class's description. */
  static boolean invisible(int cp) {
    if (cp == ' ') {
      return false;
    }
    switch (Character.getType(cp)) {
      case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
          Character.SPACE_SEPARATOR, Character.PRIVATE_USE, Character.SURROGATE -> {
        return true;
      }
      default -> {
        for (int[] range : INVISIBLE_OTHERWISE) {
          if (cp >= range[0] && cp <= range[1]) {
            return true;
          }
        }
        return false;
      }
    }
  }

  private static boolean compatibilityLookAlike(int cp) {
    if (cp < 0x80 || !(Character.isLetter(cp) || Character.getType(cp) == Character.DECIMAL_DIGIT_NUMBER)) {
      return false;
    }
    String folded = Normalizer.normalize(new String(Character.toChars(cp)), Normalizer.Form.NFKC);
    return !folded.isEmpty() && folded.chars().allMatch(c -> c < 0x80 && Character.isLetterOrDigit(c));
  }

  private static boolean wordPart(int cp) {
    int type = Character.getType(cp);
    return Character.isLetter(cp) || type == Character.DECIMAL_DIGIT_NUMBER || type == Character.NON_SPACING_MARK
        || type == Character.COMBINING_SPACING_MARK || type == Character.ENCLOSING_MARK;
  }

  /** Marks the non-ASCII characters of the word {@code [from, to)} when its letters mix scripts or its digits mix systems. */
  private static void markMixedWord(String text, int from, int to, boolean[] marked) {
    Set<Character.UnicodeScript> scripts = EnumSet.noneOf(Character.UnicodeScript.class);
    boolean asciiDigit = false;
    boolean otherDigit = false;
    for (int i = from; i < to; ) {
      int cp = text.codePointAt(i);
      if (Character.isLetter(cp)) {
        Character.UnicodeScript script = Character.UnicodeScript.of(cp);
        if (!NOT_SCRIPTS.contains(script)) {
          scripts.add(script);
        }
      } else if (Character.getType(cp) == Character.DECIMAL_DIGIT_NUMBER) {
        asciiDigit |= cp < 0x80;
        otherDigit |= cp >= 0x80;
      }
      i += Character.charCount(cp);
    }
    boolean mixed = asciiDigit && otherDigit
        || scripts.size() > 1 && WRITTEN_TOGETHER.stream().noneMatch(set -> set.containsAll(scripts));
    if (!mixed) {
      return;
    }
    for (int i = from; i < to; ) {
      int cp = text.codePointAt(i);
      if (cp >= 0x80) {
        marked[i] = true;
      }
      i += Character.charCount(cp);
    }
  }
}
