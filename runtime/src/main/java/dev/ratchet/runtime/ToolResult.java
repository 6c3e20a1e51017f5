package dev.ratchet.runtime;

/**
 * What one attempt of a tool produced. Tools return {@link #success(Object)} for the normal case;
 * {@link #rejected(String)} when the provider definitely did not apply the request;
 * {@link #uncertain(String)} when a write may have been applied; {@link #retryable(String, long)}
 * when the provider asked to try again later without applying anything (for example HTTP 429).
 * {@code branch} names the connector branch the attempt ended in, when there is one.
 *
 * @param value a JSON-compatible value (JsonObject, JsonArray, String, Number, Boolean) or null
 */
public record ToolResult(Outcome outcome, Object value, String error, String branch, boolean retryable,
                         long retryAfterMillis) {

  public static ToolResult success(Object value) {
    return new ToolResult(Outcome.SUCCEEDED, value, null, "success", false, 0);
  }

  public static ToolResult rejected(String error) {
    return new ToolResult(Outcome.FAILED, null, error, "rejected", false, 0);
  }

  public static ToolResult retryable(String error, long retryAfterMillis) {
    return new ToolResult(Outcome.FAILED, null, error, "rejected", true, retryAfterMillis);
  }

  public static ToolResult uncertain(String error) {
    return new ToolResult(Outcome.OUTCOME_UNKNOWN, null, error, "uncertain", true, 0);
  }

  /** A result for a named connector branch whose outcome the connector's manifest decides. */
  public static ToolResult of(Outcome outcome, String branch, Object value, String error) {
    return new ToolResult(outcome, value, error, branch, outcome == Outcome.OUTCOME_UNKNOWN, 0);
  }

  public ToolResult withBranch(String branch) {
    return new ToolResult(outcome, value, error, branch, retryable, retryAfterMillis);
  }
}
