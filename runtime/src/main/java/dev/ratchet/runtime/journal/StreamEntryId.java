package dev.ratchet.runtime.journal;

/**
 * A Redis stream entry id ({@code <milliseconds>-<sequence>}) as a comparable value: entries of
 * one stream are ordered by it, also within one millisecond. An empty or unreadable id (a turn
 * journaled without one) sorts first.
 */
record StreamEntryId(long millis, long sequence) implements Comparable<StreamEntryId> {

  static StreamEntryId of(String id) {
    int dash = id == null ? -1 : id.indexOf('-');
    if (dash < 0) {
      return new StreamEntryId(-1, -1);
    }
    try {
      return new StreamEntryId(Long.parseLong(id.substring(0, dash)), Long.parseLong(id.substring(dash + 1)));
    } catch (NumberFormatException e) {
      return new StreamEntryId(-1, -1);
    }
  }

  @Override
  public int compareTo(StreamEntryId other) {
    int byMillis = Long.compare(millis, other.millis);
    return byMillis != 0 ? byMillis : Long.compare(sequence, other.sequence);
  }
}
