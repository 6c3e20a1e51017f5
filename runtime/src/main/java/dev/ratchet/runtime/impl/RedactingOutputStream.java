package dev.ratchet.runtime.impl;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.Charset;

/**
 * Scrubs text on its way to a stream, a line at a time: a logger that writes a message in pieces
 * cannot split a secret across two scrubs. What {@link #flush()} finds without a line end (a
 * prompt, a progress dot) is scrubbed and written as it is.
 */
public final class RedactingOutputStream extends OutputStream {

  /** A line longer than this is written in parts, so that one endless line cannot hold memory. */
  private static final int MAX_LINE = 64 * 1024;

  private final OutputStream target;
  private final Charset charset;
  private final SecretRegistry registry;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);

  public RedactingOutputStream(OutputStream target, Charset charset, SecretRegistry registry) {
    this.target = target;
    this.charset = charset;
    this.registry = registry;
  }

  @Override
  public synchronized void write(int b) throws IOException {
    line.write(b);
    if (b == '\n' || line.size() >= MAX_LINE) {
      emit();
    }
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) throws IOException {
    int start = off;
    int end = off + len;
    for (int i = off; i < end; i++) {
      if (b[i] == '\n') {
        line.write(b, start, i + 1 - start);
        emit();
        start = i + 1;
      }
    }
    line.write(b, start, end - start);
    if (line.size() >= MAX_LINE) {
      emit();
    }
  }

  @Override
  public synchronized void flush() throws IOException {
    emit();
    target.flush();
  }

  @Override
  public synchronized void close() throws IOException {
    flush();
    target.close();
  }

  private void emit() throws IOException {
    if (line.size() == 0) {
      return;
    }
    byte[] raw = line.toByteArray();
    line.reset();
    if (registry.isEmpty()) {
      target.write(raw);
      return;
    }
    String text = new String(raw, charset);
    String scrubbed = registry.scrub(text);
    target.write(scrubbed == text ? raw : scrubbed.getBytes(charset));
  }
}
