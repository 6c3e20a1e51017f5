import { createHash } from 'node:crypto';

const ID = /^[A-Za-z0-9_.:@+-]{1,128}$/;

/** Whether Ratchet accepts this string as a session, turn or model call id as it is. */
export function isValidId(id) {
  return typeof id === 'string' && ID.test(id);
}

function digest(text) {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);
}

/**
 * The turn id of one model response, by the convention every Ratchet client shares
 * (docs/ADAPTERS.md#turn-ids): the response's own id when Ratchet accepts it, else `sha256:` and
 * 32 hex digits of its SHA-256, else `calls:sha256:` and a digest of its tool call ids. The same response always gives the
 * same turn id, so an agent process that crashes and replays its last step resubmits the same turn
 * and Ratchet answers it from its journal instead of running its writes again.
 */
export function turnIdFor(responseId, toolCallIds = []) {
  if (responseId) {
    return isValidId(responseId) ? responseId : `sha256:${digest(responseId)}`;
  }
  if (toolCallIds.length === 0 || toolCallIds.some((id) => id == null || id === '')) {
    // identical calls of two responses without ids would get one turn id, and the later would be
    // answered with the earlier's results instead of running
    throw new Error('a turn id needs the model response id or an id for every tool call');
  }
  return `calls:sha256:${digest(toolCallIds.join('\n'))}`;
}

/** A model call id Ratchet accepts: the id itself, or a digest of it. */
export function modelCallIdFor(toolCallId) {
  if (toolCallId == null) return undefined;
  return isValidId(toolCallId) ? toolCallId : `sha256:${digest(toolCallId)}`;
}
