package dev.ratchet.runtime;

import io.vertx.core.Future;

import java.util.Objects;

/**
 * A turn or message the journal holds: it runs to its end, also after a restart. {@link #result}
 * completes when it has ended (a turn's results, or the reply that ends a message's round), which
 * may take as long as its approvals take.
 */
public record Accepted<T>(Future<T> result) {

  public Accepted {
    Objects.requireNonNull(result, "result");
  }
}
