package dev.ratchet.connectors.provider;

/**
 * Who a tool provider is, for the tool picker and the catalogue.
 *
 * @param displayName optional name shown in the tool picker; {@link #label()} falls back to {@code name}
 */
public record ProviderInfo(String id, String name, String description, String displayName) {

  public String label() {
    return displayName == null || displayName.isBlank() ? name : displayName;
  }
}
