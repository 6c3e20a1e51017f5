import type { FunctionTool, Model } from '@openai/agents';
import type { RatchetClient, StepTurns } from './index.js';

/** An agent's Ratchet tools for the OpenAI Agents SDK, and a model wrapper grouping each response's calls into one turn. */
export function ratchetAgentTools(options: {
  client: RatchetClient;
  sessionId: string;
  agent: string;
  only?: string[];
}): Promise<{ tools: FunctionTool[]; turns: StepTurns; wrapModel(model: Model): Model }>;
