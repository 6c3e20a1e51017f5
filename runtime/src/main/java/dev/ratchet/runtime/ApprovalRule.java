package dev.ratchet.runtime;

import io.vertx.core.json.JsonObject;

import java.util.Objects;
import java.util.function.Predicate;

/**
 * Whether a call needs a person's approval before it runs: never, always, or a predicate over
 * the arguments. A predicate that throws anything, an {@code Error} included, means "ask". {@code source} says where the rule came
 * from (for example {@code manifest}, {@code policy}, {@code predicate}) and is shown to approvers.
 */
public final class ApprovalRule {

  private static final ApprovalRule NEVER = new ApprovalRule(false, null, "default");

  private final boolean always;
  private final Predicate<JsonObject> predicate;
  private final String source;

  private ApprovalRule(boolean always, Predicate<JsonObject> predicate, String source) {
    this.always = always;
    this.predicate = predicate;
    this.source = source;
  }

  public static ApprovalRule never() {
    return NEVER;
  }

  public static ApprovalRule always() {
    return new ApprovalRule(true, null, "tool");
  }

  public static ApprovalRule when(Predicate<JsonObject> predicate) {
    return new ApprovalRule(false, Objects.requireNonNull(predicate), "predicate");
  }

  public ApprovalRule withSource(String source) {
    return new ApprovalRule(always, predicate, source);
  }

  public String source() {
    return source;
  }

  public boolean isNever() {
    return !always && predicate == null;
  }

  /** Null when no approval is needed, otherwise the reason an approver is shown. */
  public String reasonToAsk(JsonObject arguments) {
    if (always) {
      return "approval required by " + source;
    }
    if (predicate == null) {
      return null;
    }
    try {
      return predicate.test(arguments.copy()) ? "approval required by " + source + " for these arguments" : null;
    } catch (Throwable e) {
      // anything a predicate throws, an Error included, must not stop the turn: it means "ask"
      return "approval predicate failed (" + e.getClass().getSimpleName() + "), so approval is required";
    }
  }

  public String describe() {
    if (always) {
      return "always (" + source + ")";
    }
    return predicate == null ? "never" : "when predicate holds (" + source + ")";
  }
}
