import { createHash } from 'node:crypto';

const ID = /^[A-Za-z0-9_.:@+-]{1,128}$/;

/** Whether Ratchet accepts this string as a session, turn or model call id as it is. */
export function isValidId(id) {
  return typeof id === 'string' && ID.test(id);
}

function digest(text) {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 40);
}

/**
 * The turn id of one model response: the response's own id when Ratchet accepts it, else a
 * digest of it, else a digest of the response's tool call ids. The same response always gives the
 * same turn id, so an agent process that crashes and replays its last step resubmits the same turn
 * and Ratchet answers it from its journal instead of running its writes again.
 */
export function turnIdFor(responseId, toolCallIds = []) {
  if (responseId) {
    return isValidId(responseId) ? responseId : `r-${digest(responseId)}`;
  }
  if (toolCallIds.length === 0) {
    throw new Error('a turn id needs the model response id or its tool call ids');
  }
  return `calls-${digest(toolCallIds.join('\n'))}`;
}

/** A model call id Ratchet accepts: the id itself, or a digest of it. */
export function modelCallIdFor(toolCallId) {
  if (toolCallId == null) return undefined;
  return isValidId(toolCallId) ? toolCallId : `c-${digest(toolCallId)}`;
}
