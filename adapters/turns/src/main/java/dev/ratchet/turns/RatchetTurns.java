package dev.ratchet.turns;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.Ratchet;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.turns.impl.EmbeddedTurns;
import dev.ratchet.turns.impl.HttpTurns;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;

/**
 * One agent of a Ratchet that the framework adapters hand turns to: embedded in this JVM
 * ({@link #embedded}) or reached over its HTTP API ({@link #http}). A turn completes when every call
 * of it has its outcome, which may take as long as a person takes to approve a write.
 */
public interface RatchetTurns {

  /** The agent of an embedded Ratchet, its sessions those of {@code callerId} (null: sessions without a caller). */
  static RatchetTurns embedded(Ratchet ratchet, String agent, String callerId) {
    return new EmbeddedTurns(ratchet, agent, callerId);
  }

  /**
   * The agent of a Ratchet at {@code baseUrl} (for example {@code http://ratchet:8080}), with an API
   * token of role {@code agent}; the token's tenant is the caller of the sessions.
   */
  static RatchetTurns http(URI baseUrl, String agent, String token) {
    return new HttpTurns(baseUrl, agent, token, Duration.ofSeconds(30));
  }

  String agent();

  /** Submits a turn to a session; completes with its results. Idempotent by turn id (rule 1). */
  CompletionStage<TurnResult> submit(String sessionId, Turn turn);

  /** The agent's catalogue. */
  CompletionStage<List<AgentTool>> tools();

  /**
   * {@link #submit} for frameworks whose tool execution is synchronous: blocks the calling thread
   * until the turn completes. Never call it on a Vert.x event loop.
   */
  default TurnResult run(String sessionId, Turn turn) {
    return join(submit(sessionId, turn));
  }

  /** {@link #tools} for synchronous callers. */
  default List<AgentTool> toolList() {
    return join(tools());
  }

  private static <T> T join(CompletionStage<T> stage) {
    try {
      return stage.toCompletableFuture().get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RatchetException(ErrorCode.INTERNAL, "interrupted while waiting for Ratchet", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() instanceof CompletionException c && c.getCause() != null ? c.getCause() : e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      throw new RatchetException(ErrorCode.INTERNAL, String.valueOf(cause.getMessage()), cause);
    }
  }
}
