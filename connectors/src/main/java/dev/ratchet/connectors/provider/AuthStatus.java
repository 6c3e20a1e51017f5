package dev.ratchet.connectors.provider;

/**
 * Where an authorization flow is.
 *
 * @param state {@code pending}, {@code completed} or {@code failed}
 * @param connectionId the connection it created, when known
 */
public record AuthStatus(String state, String connectionId) {

  public static final String PENDING = "pending";
  public static final String COMPLETED = "completed";
  public static final String FAILED = "failed";

  public boolean completed() {
    return COMPLETED.equals(state);
  }
}
