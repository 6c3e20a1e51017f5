package dev.ratchet.server.config;

import dev.ratchet.connectors.Connections;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.nio.file.Path;
import java.util.List;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/** What loading a directory of agent files refused: each problem as it is printed, its file and line first. */
final class AgentFileErrors {

  private AgentFileErrors() {
  }

  /** The problems; fails the test when the files load. */
  static List<String> of(Vertx vertx, Path dir, Connections connections, AgentModels models) {
    Throwable failure = await(AgentFiles.load(vertx, dir, connections, models)
        .transform(ar -> Future.succeededFuture(ar.cause())));
    assertThat(failure).isInstanceOf(AgentFilesException.class);
    return ((AgentFilesException) failure).errors().stream().map(String::valueOf).toList();
  }
}
