package dev.ratchet.connectors.provider;

import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.util.List;
import java.util.function.Supplier;

import static dev.ratchet.runtime.testing.Await.await;
import static dev.ratchet.runtime.testing.Await.failure;
import static org.assertj.core.api.Assertions.assertThat;

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
    await(vertx.close());
  }

  /**
   * To {@code caller}, a connection of {@code owner}'s reads as missing, as one of nobody's does, and
   * revoking it fails the same way, as not the caller's; the owner still sees it.
   */
  protected static void assertAnotherCallersConnectionIsHidden(ToolProvider provider, String theirs, String nobodys,
                                                               ResolveOptions caller, ResolveOptions owner) {
    assertThat(await(provider.getConnectionStatus(List.of(new ConnectionRef(theirs, "github"),
        new ConnectionRef(nobodys, "github")), caller)))
        .containsEntry(theirs, false).containsEntry(nobodys, false);

    Throwable taken = failure(provider.revokeConnection(theirs, caller));
    Throwable missing = failure(provider.revokeConnection(nobodys, caller));
    assertThat(((ProviderException) taken).code()).isEqualTo("CONNECTION_NOT_OWNED");
    assertThat(taken.getMessage()).isEqualTo(missing.getMessage().replace(nobodys, theirs));
    assertThat(await(provider.getConnectionStatus(List.of(new ConnectionRef(theirs, "github")), owner)))
        .containsEntry(theirs, true);
  }
}
