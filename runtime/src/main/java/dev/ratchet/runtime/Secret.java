package dev.ratchet.runtime;

import dev.ratchet.runtime.impl.SecretRegistry;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A credential. It prints as {@code ***}, refuses serialization, and is read through a supplier
 * each time it is used, so a rotated credential takes effect without a restart. Each value it
 * reveals is registered with the process's {@link Redaction}, which keeps the last few values of a
 * rotated secret and scrubs them from tool results, errors, the journal and the logs.
 *
 * <p>Only values wrapped in a {@code Secret} are treated as secrets: a configuration that takes
 * either a {@code Secret} or a plain {@code String} treats the string as an ordinary value.
 */
public final class Secret implements java.io.Serializable {

  private static final long serialVersionUID = 1L;

  private final transient Supplier<String> supplier;
  private final long expiresAt;
  /** Shared by the copies {@link #expiringAt} makes: they are one secret whose values rotate together. */
  private final transient Object identity;

  private Secret(Supplier<String> supplier, long expiresAt, Object identity) {
    this.supplier = Objects.requireNonNull(supplier);
    this.expiresAt = expiresAt;
    this.identity = identity;
  }

  public static Secret of(String value) {
    Objects.requireNonNull(value, "value");
    Secret secret = new Secret(() -> value, 0, new Object());
    SecretRegistry.global().record(secret.identity, value);
    return secret;
  }

  /** A secret re-read from its supplier at every use. */
  public static Secret from(Supplier<String> supplier) {
    return new Secret(supplier, 0, new Object());
  }

  /** @param expiresAt epoch milliseconds after which the secret is refused, 0 for never */
  public Secret expiringAt(long expiresAt) {
    return new Secret(supplier, expiresAt, identity);
  }

  public boolean isExpired() {
    return expiresAt > 0 && System.currentTimeMillis() >= expiresAt;
  }

  /**
   * The current value. Throws {@link ToolNotSentException} when the secret is missing or expired,
   * so a call that needs it fails before anything is sent.
   */
  public String reveal() {
    if (isExpired()) {
      throw new ToolNotSentException("credentials expired");
    }
    String value;
    try {
      value = supplier.get();
    } catch (ToolNotSentException e) {
      throw e;
    } catch (RuntimeException e) {
      // the supplier's message may quote the secret, so it is not passed on
      throw new ToolNotSentException("credentials could not be read");
    }
    if (value == null || value.isEmpty()) {
      throw new ToolNotSentException("credentials are missing");
    }
    SecretRegistry.global().record(identity, value);
    return value;
  }

  @Override
  public String toString() {
    return "***";
  }

  private void writeObject(java.io.ObjectOutputStream out) throws java.io.NotSerializableException {
    throw new java.io.NotSerializableException("a Secret is never serialized");
  }

  /** Jackson and Vert.x JSON encoders call this; it never reveals the value. */
  public String toJson() {
    return "***";
  }
}
