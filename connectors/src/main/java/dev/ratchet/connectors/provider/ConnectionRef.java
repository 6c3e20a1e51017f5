package dev.ratchet.connectors.provider;

/** A connection to check, with the toolkit it is expected to belong to. */
public record ConnectionRef(String connectionId, String toolkit) {
}
