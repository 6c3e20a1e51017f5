package dev.ratchet.runtime;

import dev.ratchet.runtime.impl.RedactingOutputStream;
import dev.ratchet.runtime.impl.SecretRegistry;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.PrintStream;
import java.nio.charset.Charset;
import java.util.Map;

/**
 * The process's one redactor. Every {@link Secret} registers its value here when it is revealed
 * (the last {@value SecretRegistry#HISTORY} values of a rotated secret are kept), and
 * {@link #scrub(String)} replaces each of them with {@code ***} in every form it may take on the
 * way out: as it is, JSON-escaped, URL-encoded, base64 (also inside a longer base64 text such as
 * {@code Basic base64(user:secret)}) and hex. Values shorter than {@value #MIN_LENGTH} characters
 * are never scrubbed, since they would blank out ordinary words.
 *
 * <p>Tool sources pass every result, error and health text through it, and the engine does once
 * more before anything is journaled. An application that logs through its own logging set-up
 * hooks it in with {@link #scrub(String)} (for example in a Logback {@code MessageConverter}) or
 * with {@link #redactStandardStreams()} when its logs go to standard error or output.
 */
public final class Redaction {

  /** Values shorter than this are not scrubbed. */
  public static final int MIN_LENGTH = SecretRegistry.MIN_LENGTH;

  private static boolean streamsRedacted;

  private Redaction() {
  }

  /** {@code text} with every form of every secret this process has revealed replaced by {@code ***}. */
  public static String scrub(String text) {
    return SecretRegistry.global().scrub(text);
  }

  /**
   * Scrubs every string (keys included) inside a JSON-compatible value; the value itself when
   * nothing needed scrubbing. Other objects (a record a Java function returned) are scrubbed
   * through their JSON text, as the journal will encode them.
   */
  public static Object scrubValue(Object value) {
    if (value == null || value instanceof Number || value instanceof Boolean || SecretRegistry.global().isEmpty()) {
      return value;
    }
    if (value instanceof String s) {
      return scrub(s);
    }
    if (value instanceof JsonObject o) {
      JsonObject copy = new JsonObject();
      boolean changed = false;
      for (Map.Entry<String, Object> e : o) {
        String key = scrub(e.getKey());
        Object v = scrubValue(e.getValue());
        changed |= !key.equals(e.getKey()) || v != e.getValue();
        copy.put(key, v);
      }
      return changed ? copy : o;
    }
    if (value instanceof JsonArray a) {
      JsonArray copy = new JsonArray();
      boolean changed = false;
      for (Object item : a) {
        Object v = scrubValue(item);
        changed |= v != item;
        copy.add(v);
      }
      return changed ? copy : a;
    }
    String encoded;
    try {
      encoded = Json.encode(value);
    } catch (RuntimeException notJson) {
      return value;
    }
    String scrubbed = scrub(encoded);
    if (scrubbed.equals(encoded)) {
      return value;
    }
    try {
      return scrubValue(Json.decodeValue(encoded));
    } catch (DecodeException e) {
      return scrubbed;
    }
  }

  /** A tool result with its value and error scrubbed. */
  public static ToolResult scrub(ToolResult result) {
    if (result == null) {
      return null;
    }
    Object value = scrubValue(result.value());
    String error = scrub(result.error());
    if (value == result.value() && (error == null || error.equals(result.error()))) {
      return result;
    }
    return new ToolResult(result.outcome(), value, error, result.branch(), result.retryable(),
        result.retryAfterMillis());
  }

  /**
   * Registers a value that is a secret but does not come from a {@link Secret} (a credential an
   * application read itself, a value it knows a child process holds).
   */
  public static void remember(String value) {
    SecretRegistry.global().record(value, value);
  }

  /**
   * Registers a secret's current value now rather than at its first use. Best effort: a secret
   * that cannot be read yet is left for later. Its supplier runs here, so call it off the event loop.
   */
  public static void remember(Secret secret) {
    try {
      secret.reveal();
    } catch (RuntimeException unreadable) {
      // registered when it is first revealed instead
    }
  }

  /**
   * Replaces {@link System#err} and {@link System#out} with streams that scrub each line before
   * writing it, so that whatever any library logs there (slf4j-simple writes to standard error)
   * carries no secret. Call it before any logger is created, since a logger may keep the stream
   * it found. Calling it again does nothing.
   */
  public static synchronized void redactStandardStreams() {
    if (streamsRedacted) {
      return;
    }
    streamsRedacted = true;
    Charset charset = Charset.defaultCharset();
    PrintStream err = redacting(System.err, charset);
    PrintStream out = redacting(System.out, charset);
    System.setErr(err);
    System.setOut(out);
    // a last line without a line end is still written when the process exits
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      out.flush();
      err.flush();
    }, "ratchet-flush-redacted-streams"));
  }

  private static PrintStream redacting(PrintStream target, Charset charset) {
    // no auto-flush: it would flush after every print, and a secret printed in pieces would escape
    // the scrub; the redacting stream passes each line on as soon as it ends
    return new PrintStream(new RedactingOutputStream(target, charset, SecretRegistry.global()), false, charset);
  }
}
