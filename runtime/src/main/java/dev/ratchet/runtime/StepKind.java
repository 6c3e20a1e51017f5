package dev.ratchet.runtime;

/** The kinds of journaled step a session moves through. */
public enum StepKind {
  RUN_MODEL("RunModel"),
  CALL_TOOL("CallTool"),
  CALL_SINGLE_ATTEMPT_TOOL("CallSingleAttemptTool"),
  AWAIT_TOOL_APPROVAL("AwaitToolApproval");

  private final String wireName;

  StepKind(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  @Override
  public String toString() {
    return wireName;
  }
}
