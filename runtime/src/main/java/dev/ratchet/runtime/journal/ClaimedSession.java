package dev.ratchet.runtime.journal;

import java.util.List;

/**
 * A session just claimed: the owner's new fencing epoch, the session's caller (null when it has
 * none) and the turns the journal holds in flight, oldest first.
 */
public record ClaimedSession(long epoch, String caller, List<InflightTurn> inflight) {
}
