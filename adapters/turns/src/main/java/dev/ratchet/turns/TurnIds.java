package dev.ratchet.turns;

import dev.ratchet.runtime.Ids;

import java.util.List;

/**
 * Turn ids taken from the model's own response, so that submitting the same response again (after
 * a crash of the application, say) names the same turn and runs nothing twice. The convention is
 * shared by every Ratchet client:
 * <ul>
 *   <li>the response id (a chat completion's {@code id}, an Anthropic message's {@code id}, ...) when
 *   it is in Ratchet's id alphabet ({@link Ids}) and at most 128 characters: as it is;</li>
 *   <li>any other response id: {@code sha256:} and the first 32 hex digits of the SHA-256 of its UTF-8 bytes;</li>
 *   <li>no response id: {@code calls:sha256:} and the first 32 hex digits of the SHA-256 of the
 *   tool-call ids joined with {@code \n}.</li>
 * </ul>
 */
public final class TurnIds {

  private TurnIds() {
  }

  /** The turn id of a model response with this id and these tool-call ids (in the model's order). */
  public static String of(String responseId, List<String> toolCallIds) {
    if (responseId != null && !responseId.isEmpty()) {
      return sanitize(responseId);
    }
    if (toolCallIds.isEmpty() || toolCallIds.stream().anyMatch(id -> id == null || id.isEmpty())) {
      throw new IllegalArgumentException("a model response without an id needs an id on each of its tool calls "
          + "to name its turn");
    }
    return Ids.turnOfCalls(toolCallIds);
  }

  /** {@code id} itself when Ratchet accepts it as an id, else its {@code sha256:} form. */
  public static String sanitize(String id) {
    return Ids.sanitized(id);
  }
}
