package dev.ratchet.connectors.provider;

/**
 * Lists the connections of one identity, optionally for one toolkit.
 *
 * @param cursor the {@code nextCursor} of the previous page, or null for the first
 */
public record ListConnectionsOptions(ResolveOptions identity, String toolkit, String cursor) {

  public ListConnectionsOptions(ResolveOptions identity, String toolkit) {
    this(identity, toolkit, null);
  }

  public ListConnectionsOptions withCursor(String cursor) {
    return new ListConnectionsOptions(identity, toolkit, cursor);
  }
}
