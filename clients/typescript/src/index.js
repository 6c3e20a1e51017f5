export { DEFAULT_TURN_TIMEOUT_MS, RatchetClient } from './client.js';
export { RatchetError, ToolCallError } from './errors.js';
export { MissingCallIdError, StepTurns } from './step-turns.js';
export { isValidId, modelCallIdFor, turnIdFor } from './turn-ids.js';
