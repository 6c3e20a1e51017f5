package dev.ratchet.connectors.provider;

import io.vertx.core.Vertx;

/** A provider's API served on loopback by a test double that keeps what it was asked. */
public interface FakeProvider {

  /** Starts serving on a free port of 127.0.0.1; that port. */
  int start(Vertx vertx);
}
