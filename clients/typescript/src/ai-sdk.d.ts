import type { LanguageModel, LanguageModelMiddleware, ToolSet } from 'ai';
import type { RatchetClient, StepTurns } from './index.js';

/** A middleware recording each model response's tool calls as one Ratchet turn. */
export function ratchetMiddleware(turns: StepTurns, names: Set<string>): LanguageModelMiddleware;

/** An agent's Ratchet tools for the AI SDK, and the model wrapped so each step's calls run as one turn. */
export function ratchetTools(options: {
  client: RatchetClient;
  sessionId: string;
  agent: string;
  model?: LanguageModel;
  only?: string[];
}): Promise<{ tools: ToolSet; turns: StepTurns; model?: LanguageModel }>;
