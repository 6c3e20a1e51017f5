export { RatchetClient } from './client.js';
export { RatchetError, ToolCallError } from './errors.js';
export { StepTurns } from './step-turns.js';
export { isValidId, modelCallIdFor, turnIdFor } from './turn-ids.js';
