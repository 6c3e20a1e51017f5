package dev.ratchet.turns.impl;

import dev.ratchet.runtime.Ratchet;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnRequest;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.turns.AgentTool;
import dev.ratchet.turns.RatchetTurns;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** An agent of a Ratchet in this JVM, through its Java facade; its sessions those of {@code callerId}. */
public record EmbeddedTurns(Ratchet ratchet, String agent, String callerId) implements RatchetTurns {

  @Override
  public CompletionStage<TurnResult> submit(String sessionId, Turn turn) {
    return ratchet.submit(TurnRequest.of(agent, sessionId, turn).callerId(callerId)).toCompletionStage();
  }

  @Override
  public CompletionStage<List<AgentTool>> tools() {
    try {
      return CompletableFuture.completedFuture(ratchet.queries().catalog(agent).entries().stream()
          .map(e -> AgentTool.fromJson(e.toJson())).toList());
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

}
