package dev.ratchet.runtime;

/**
 * How a tool's effect behaves when repeated; decides the journaled step, the number of attempts
 * and whether the call goes through the session's write queue.
 */
public enum EffectClass {
  READ("read", StepKind.CALL_TOOL),
  IDEMPOTENT_WRITE("idempotent_write", StepKind.CALL_TOOL),
  NON_IDEMPOTENT_WRITE("non_idempotent_write", StepKind.CALL_SINGLE_ATTEMPT_TOOL);

  private final String wireName;
  private final StepKind step;

  EffectClass(String wireName, StepKind step) {
    this.wireName = wireName;
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
    for (EffectClass c : values()) {
      if (c.wireName.equals(name)) {
        return c;
      }
    }
    throw new IllegalArgumentException("unknown effect class '" + name
        + "' (expected read, idempotent_write or non_idempotent_write)");
  }

  @Override
  public String toString() {
    return wireName;
  }
}
