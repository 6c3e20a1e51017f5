package dev.ratchet.runtime.journal;

import java.util.List;

/** A session just claimed: the owner's new fencing epoch and the turns the journal holds in flight, oldest first. */
public record ClaimedSession(long epoch, List<InflightTurn> inflight) {
}
