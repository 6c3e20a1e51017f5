package dev.ratchet.server;

import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static dev.ratchet.runtime.testing.Await.await;

/**
 * What tests of a {@code ratchet run} child process share: a directory of the test's own, a Vert.x
 * for the local servers the child talks to, and the child with its agent token and admin password;
 * the child is stopped and the Vert.x closed after each test.
 */
public abstract class RunChildFixture {

  @TempDir
  protected Path dir;

  protected final Vertx vertx = Vertx.vertx();
  protected final RunChild run;

  protected RunChildFixture(String token, String password) {
    run = new RunChild(token, password);
  }

  @AfterEach
  protected void stopChild() throws Exception {
    run.close();
    await(vertx.close());
  }
}
