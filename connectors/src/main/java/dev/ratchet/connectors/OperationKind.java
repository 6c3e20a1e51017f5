package dev.ratchet.connectors;

import dev.ratchet.runtime.WireNames;

/** Whether an operation only reads ({@code query}) or changes something at the provider ({@code mutation}). */
public enum OperationKind {
  QUERY,
  MUTATION;

  private final String wireName = WireNames.of(this, '_');

  public String wireName() {
    return wireName;
  }

  public static OperationKind fromWireName(String name) {
    return WireNames.parse(values(), name, OperationKind::wireName, () -> "unknown operation kind '" + name + "' (expected query or mutation)");
  }

  @Override
  public String toString() {
    return wireName;
  }
}
