package dev.ratchet.connectors.provider;

/** A value a user must provide to connect a toolkit (for example a subdomain or an API key). */
public record ConnectionField(String name, String displayName, String type, String description,
                              boolean required, boolean secret) {
}
