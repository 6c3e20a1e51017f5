package dev.ratchet.connectors.provider;

import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.util.function.Supplier;

/** A provider's tests against a fresh fake of its API and a fresh Vert.x for each test. */
public abstract class FakeProviderTestBase<F extends FakeProvider> {

  private final Supplier<F> newFake;
  protected Vertx vertx;
  protected F fake;
  protected int port;

  protected FakeProviderTestBase(Supplier<F> newFake) {
    this.newFake = newFake;
  }

  @BeforeEach
  void startFake() {
    vertx = Vertx.vertx();
    fake = newFake.get();
    port = fake.start(vertx);
  }

  @AfterEach
  void closeVertx() {
    vertx.close().await();
  }
}
