package dev.ratchet.connectors.mcp.impl;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** Reads a child process's output line by line, as UTF-8, with a bound on a line's length. */
final class StdioLines {

  private StdioLines() {
  }

  /**
   * The next line without its terminator ({@code \n} or {@code \r\n}), or null at the end of the
   * stream; a line longer than {@code maxBytes} fails, so that a peer cannot make this buffer
   * without end.
   */
  static String read(InputStream in, int maxBytes) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream(256);
    int b;
    while ((b = in.read()) != -1) {
      if (b == '\n') {
        return text(line);
      }
      if (line.size() >= maxBytes) {
        throw new IOException("a line of more than " + maxBytes + " bytes");
      }
      line.write(b);
    }
    return line.size() == 0 ? null : text(line);
  }

  private static String text(ByteArrayOutputStream line) {
    byte[] bytes = line.toByteArray();
    int n = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
    return new String(bytes, 0, n, StandardCharsets.UTF_8);
  }
}
