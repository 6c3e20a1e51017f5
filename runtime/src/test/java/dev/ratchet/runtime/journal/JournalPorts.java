package dev.ratchet.runtime.journal;

/** The optional ports of a journal under test, asked of its store by name as callers do. */
public final class JournalPorts {

  private JournalPorts() {
  }

  public static JournalQueries queries(SessionJournal journal) {
    if (journal instanceof RedisJournal redis) {
      return redis.queries();
    }
    if (journal instanceof InMemoryJournal memory) {
      return memory.queries();
    }
    throw new IllegalArgumentException("no read side known for " + journal);
  }

  public static JournalRetention retention(SessionJournal journal) {
    if (journal instanceof RedisJournal redis) {
      return redis.retention();
    }
    if (journal instanceof InMemoryJournal memory) {
      return memory.retention();
    }
    throw new IllegalArgumentException("no retention known for " + journal);
  }

  public static JournalDiagnostics diagnostics(SessionJournal journal) {
    if (journal instanceof RedisJournal redis) {
      return redis.diagnostics();
    }
    if (journal instanceof InMemoryJournal memory) {
      return memory.diagnostics();
    }
    throw new IllegalArgumentException("no diagnostics known for " + journal);
  }
}
