package dev.ratchet.connectors.provider;

import java.util.List;

/**
 * One page of a provider listing.
 *
 * @param nextCursor pass it back to get the next page; null on the last page
 */
public record ProviderPage<T>(List<T> items, String nextCursor) {

  public ProviderPage {
    items = List.copyOf(items);
  }
}
