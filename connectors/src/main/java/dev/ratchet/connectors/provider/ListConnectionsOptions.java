package dev.ratchet.connectors.provider;

/** Lists the connections of one identity, optionally for one toolkit. */
public record ListConnectionsOptions(ResolveOptions identity, String toolkit) {
}
