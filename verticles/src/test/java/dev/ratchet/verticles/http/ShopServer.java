package dev.ratchet.verticles.http;

import dev.ratchet.runtime.testing.TestRedis;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.net.URI;

/**
 * A {@link ShopRuntime} on a Redis of the test class's own, started before its first test and
 * closed after its last: register it as a static extension.
 */
final class ShopServer implements BeforeAllCallback, AfterAllCallback {

  private final TestRedis redis = new TestRedis();
  private ShopRuntime shop;

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    redis.beforeAll(context);
    shop = new ShopRuntime(redis);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    try {
      if (shop != null) {
        shop.close();
      }
    } finally {
      redis.afterAll(context);
    }
  }

  ShopRuntime runtime() {
    return shop;
  }

  String baseUrl() {
    return shop.baseUrl();
  }

  /** The server's address, for requests written by hand over a socket. */
  URI uri() {
    return URI.create(shop.baseUrl());
  }
}
