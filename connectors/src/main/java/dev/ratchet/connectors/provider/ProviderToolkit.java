package dev.ratchet.connectors.provider;

/** A group of a provider's tools for one service, for example {@code github}. */
public record ProviderToolkit(String slug, String name, String description) {
}
