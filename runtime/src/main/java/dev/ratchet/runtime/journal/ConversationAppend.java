package dev.ratchet.runtime.journal;

import io.vertx.core.json.JsonObject;

/**
 * What an append to a session's conversation answered: where the entry is, whether this append
 * created it ({@code created}) or found one recorded before, and the entry that is recorded.
 */
public record ConversationAppend(long index, boolean created, JsonObject entry) {
}
