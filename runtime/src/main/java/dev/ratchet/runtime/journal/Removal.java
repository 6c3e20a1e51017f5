package dev.ratchet.runtime.journal;

import java.util.List;

/** What a retention step removed: the turns, how many tombstones expired, and whether the session was archived. */
public record Removal(List<String> removedTurns, int expiredTombstones, boolean archived) {
}
