package dev.ratchet.verticles.http;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** What the log (slf4j-simple, on System.err) prints while open; still shown on the console too. */
final class CapturedLog implements AutoCloseable {

  private final PrintStream original = System.err;
  private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

  CapturedLog() {
    System.setErr(new PrintStream(new OutputStream() {
      @Override
      public void write(int b) {
        synchronized (captured) {
          captured.write(b);
        }
        original.write(b);
      }

      @Override
      public void write(byte[] b, int off, int len) {
        synchronized (captured) {
          captured.write(b, off, len);
        }
        original.write(b, off, len);
      }
    }, true, StandardCharsets.UTF_8));
  }

  String text() {
    synchronized (captured) {
      return captured.toString(StandardCharsets.UTF_8);
    }
  }

  @Override
  public void close() {
    System.setErr(original);
  }
}
