package dev.ratchet.runtime;

import dev.ratchet.runtime.impl.SchemaCondition;
import io.vertx.core.json.JsonObject;

import java.util.Objects;
import java.util.function.Predicate;

/**
 * Whether a call needs a person's approval before it runs: never, always, or a predicate over
 * the arguments. A predicate that throws anything, an {@code Error} included, means "ask". {@code source} says where the rule came
 * from (for example {@code manifest}, {@code policy}, {@code predicate}) and is shown to approvers.
 */
public final class ApprovalRule {

  private static final ApprovalRule NEVER = new ApprovalRule(false, null, "default", null, false);

  private final boolean always;
  private final Predicate<JsonObject> predicate;
  private final String source;
  private final String condition;
  private final boolean allowEdit;

  private ApprovalRule(boolean always, Predicate<JsonObject> predicate, String source, String condition,
                       boolean allowEdit) {
    this.always = always;
    this.predicate = predicate;
    this.source = source;
    this.condition = condition;
    this.allowEdit = allowEdit;
  }

  private ApprovalRule(boolean always, Predicate<JsonObject> predicate, String source, String condition) {
    this(always, predicate, source, condition, false);
  }

  public static ApprovalRule never() {
    return NEVER;
  }

  public static ApprovalRule always() {
    return new ApprovalRule(true, null, "tool", null);
  }

  public static ApprovalRule when(Predicate<JsonObject> predicate) {
    return new ApprovalRule(false, Objects.requireNonNull(predicate), "predicate", null);
  }

  /**
   * Asks when the arguments match a JSON Schema (draft 2020-12). Nothing is executed: the schema is
   * data, and its readable form ({@code body.amount > 100}) is what approvers are shown as the reason.
   * Fails when the schema cannot be compiled.
   */
  public static ApprovalRule whenMatches(JsonObject schema) {
    SchemaCondition condition = SchemaCondition.compile(schema);
    return new ApprovalRule(false, condition::matches, "schema", condition.describe());
  }

  public ApprovalRule withSource(String source) {
    return new ApprovalRule(always, predicate, source, condition, allowEdit);
  }

  /**
   * This rule, letting an approver edit the arguments before approving ({@code approval.allowEdit}):
   * the edited arguments are validated against the tool's input schema and the call runs with them.
   */
  public ApprovalRule withEdit(boolean allowEdit) {
    return new ApprovalRule(always, predicate, source, condition, allowEdit);
  }

  /** Whether an approver may edit the arguments before approving; false unless {@link #withEdit} said so. */
  public boolean allowsEdit() {
    return allowEdit;
  }

  /** The readable condition of a schema rule ({@code body.amount > 100}), or null for any other rule. */
  public String condition() {
    return condition;
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
      if (!predicate.test(arguments.copy())) {
        return null;
      }
      return condition == null ? "approval required by " + source + " for these arguments"
          : "approval required by " + source + ": " + condition;
    } catch (Throwable e) {
      // anything a predicate throws, an Error included, must not stop the turn: it means "ask"
      return "approval predicate failed (" + e.getClass().getSimpleName() + "), so approval is required";
    }
  }

  public String describe() {
    if (always) {
      return "always (" + source + ")";
    }
    if (predicate == null) {
      return "never";
    }
    return condition == null ? "when predicate holds (" + source + ")" : "when " + condition + " (" + source + ")";
  }
}
