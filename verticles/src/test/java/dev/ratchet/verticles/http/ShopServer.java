package dev.ratchet.verticles.http;

import java.net.URI;

/**
 * A {@link ShopRuntime} on a Redis of the test class's own, started before its first test and
 * closed after its last: register it as a static extension.
 */
final class ShopServer extends RuntimeServer<ShopRuntime> {

  ShopServer() {
    super(ShopRuntime::new);
  }

  /** The server's address, for requests written by hand over a socket. */
  URI uri() {
    return URI.create(baseUrl());
  }
}
