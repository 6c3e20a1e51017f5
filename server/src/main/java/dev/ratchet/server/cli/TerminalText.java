package dev.ratchet.server.cli;

/**
 * Text from the journal made safe to print on a terminal: whatever a session, turn or agent id, a
 * tool's error or a user's message holds, it prints as one line of visible characters. Control
 * characters (C0 with CR, LF and ESC, DEL, C1), Unicode format characters (the bidi overrides and
 * isolates, zero-width characters) and line or paragraph separators show as escapes, so a value can
 * neither start a line that looks like the journal's own nor drive the terminal.
 */
final class TerminalText {

  private TerminalText() {
  }

  /**
   * {@code text} with every such character as an escape ({@code \n}, {@code \x1b}, {@code \u202e})
   * and each backslash doubled, so that an escape and text that merely looks like one differ.
   */
  static String escape(String text) {
    if (text == null) {
      return null;
    }
    StringBuilder out = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      String replacement = switch (c) {
        case '\n' -> "\\n";
        case '\r' -> "\\r";
        case '\t' -> "\\t";
        case '\\' -> "\\\\";
        default -> unsafe(c) ? (c < 0x80 ? String.format("\\x%02x", (int) c) : String.format("\\u%04x", (int) c))
            : null;
      };
      if (replacement != null && out == null) {
        out = new StringBuilder(text.length() + 16).append(text, 0, i);
      }
      if (out != null) {
        if (replacement != null) {
          out.append(replacement);
        } else {
          out.append(c);
        }
      }
    }
    return out == null ? text : out.toString();
  }

  /**
   * A line of JSON with the characters that JSON lets through raw but a terminal acts on (DEL, C1,
   * format characters, separators) as {@code \\uXXXX} escapes: still the same JSON. The encoder
   * already escapes C0 controls, quotes and backslashes.
   */
  static String json(String encoded) {
    StringBuilder out = null;
    for (int i = 0; i < encoded.length(); i++) {
      char c = encoded.charAt(i);
      boolean escape = unsafe(c);
      if (escape && out == null) {
        out = new StringBuilder(encoded.length() + 16).append(encoded, 0, i);
      }
      if (out != null) {
        out.append(escape ? String.format("\\u%04x", (int) c) : String.valueOf(c));
      }
    }
    return out == null ? encoded : out.toString();
  }

  /** Whether a terminal could act on {@code c} or it could end a line, rather than show a glyph. */
  private static boolean unsafe(char c) {
    if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f)) {
      return true;
    }
    int type = Character.getType(c);
    return type == Character.FORMAT || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR
        || type == Character.CONTROL;
  }
}
