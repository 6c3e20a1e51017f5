package dev.ratchet.runtime.journal;

import java.util.function.Function;

/** The optional ports of a journal under test, asked of its store by name as callers do. */
public final class JournalPorts {

  private JournalPorts() {
  }

  public static JournalQueries queries(SessionJournal journal) {
    return port(journal, RedisJournal::queries, InMemoryJournal::queries);
  }

  public static JournalRetention retention(SessionJournal journal) {
    return port(journal, RedisJournal::retention, InMemoryJournal::retention);
  }

  public static JournalDiagnostics diagnostics(SessionJournal journal) {
    return port(journal, RedisJournal::diagnostics, InMemoryJournal::diagnostics);
  }

  private static <T> T port(SessionJournal journal, Function<RedisJournal, T> redis,
                            Function<InMemoryJournal, T> memory) {
    if (journal instanceof RedisJournal r) {
      return redis.apply(r);
    }
    if (journal instanceof InMemoryJournal m) {
      return memory.apply(m);
    }
    throw new IllegalArgumentException("no store known for " + journal);
  }
}
