package dev.ratchet.runtime;

/**
 * How a tool's effect behaves when repeated; decides the journaled step, the number of attempts
 * and whether the call goes through the session's write queue.
 */
public enum EffectClass {
  READ(StepKind.CALL_TOOL),
  IDEMPOTENT_WRITE(StepKind.CALL_TOOL),
  NON_IDEMPOTENT_WRITE(StepKind.CALL_SINGLE_ATTEMPT_TOOL);

  private final String wireName = WireNames.of(this, '_');
  private final StepKind step;

  EffectClass(StepKind step) {
    this.step = step;
  }

  public String wireName() {
    return wireName;
  }

  public StepKind step() {
    return step;
  }

  public boolean isWrite() {
    return this != READ;
  }

  public static EffectClass fromWireName(String name) {
    return WireNames.parse(values(), name, EffectClass::wireName, () -> "unknown effect class '" + name
        + "' (expected read, idempotent_write or non_idempotent_write)");
  }

  @Override
  public String toString() {
    return wireName;
  }
}
