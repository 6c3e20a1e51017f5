package dev.ratchet.runtime;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A credential. It prints as {@code ***}, refuses serialization, and is read through a supplier
 * each time it is used, so a rotated credential takes effect without a restart.
 */
public final class Secret implements java.io.Serializable {

  private static final long serialVersionUID = 1L;

  private final transient Supplier<String> supplier;
  private final long expiresAt;

  private Secret(Supplier<String> supplier, long expiresAt) {
    this.supplier = Objects.requireNonNull(supplier);
    this.expiresAt = expiresAt;
  }

  public static Secret of(String value) {
    Objects.requireNonNull(value, "value");
    return new Secret(() -> value, 0);
  }

  /** A secret re-read from its supplier at every use. */
  public static Secret from(Supplier<String> supplier) {
    return new Secret(supplier, 0);
  }

  /** @param expiresAt epoch milliseconds after which the secret is refused, 0 for never */
  public Secret expiringAt(long expiresAt) {
    return new Secret(supplier, expiresAt);
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
