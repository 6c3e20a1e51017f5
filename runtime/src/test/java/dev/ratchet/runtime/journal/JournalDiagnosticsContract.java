package dev.ratchet.runtime.journal;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The TCK of the journal store's health, {@link JournalDiagnostics}: a store that answers is
 * reachable and writable, and its write probe touches no session. Every store that offers
 * diagnostics runs it with {@link #open}.
 */
public abstract class JournalDiagnosticsContract extends JournalFixture {

  protected JournalDiagnostics diagnostics;

  @BeforeEach
  void diagnostics() {
    diagnostics = JournalPorts.diagnostics(journal);
  }

  @Test
  void aStoreThatAnswersIsReachableAndWritableAndItsProbeTouchesNoSession() {
    submitted(turn("t1", "a"));
    java.util.List<String> recent = await(queries.recentSessions(0, 10_000));
    java.util.List<String> active = await(queries.activeSessions());

    await(diagnostics.reachable());
    await(diagnostics.ping());

    assertThat(await(queries.recentSessions(0, 10_000))).isEqualTo(recent);
    assertThat(await(queries.activeSessions())).isEqualTo(active);
    assertThat(await(queries.inflightTurns(sessionId))).extracting(i -> i.turn().turnId()).containsExactly("t1");
  }
}
