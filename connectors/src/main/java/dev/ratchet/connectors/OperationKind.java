package dev.ratchet.connectors;

/** Whether an operation only reads ({@code query}) or changes something at the provider ({@code mutation}). */
public enum OperationKind {
  QUERY("query"),
  MUTATION("mutation");

  private final String wireName;

  OperationKind(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  public static OperationKind fromWireName(String name) {
    for (OperationKind k : values()) {
      if (k.wireName.equals(name)) {
        return k;
      }
    }
    throw new IllegalArgumentException("unknown operation kind '" + name + "' (expected query or mutation)");
  }

  @Override
  public String toString() {
    return wireName;
  }
}
