import type { FunctionTool, Model } from '@openai/agents';
import type { RatchetClient, StepTurns } from './index.js';

/** An agent's Ratchet tools for the OpenAI Agents SDK, and a model wrapper grouping each response's calls into one turn. */
export function ratchetAgentTools(options: {
  client: RatchetClient;
  sessionId: string;
  agent: string;
  only?: string[];
}): Promise<{ tools: FunctionTool[]; turns: StepTurns; wrapModel(model: Model): Model }>;

/** Ratchet's MCP endpoint of one agent as an Agents SDK MCP server, with a model wrapper that makes each response one turn. */
export function ratchetMcpServer(options: {
  baseUrl: string;
  token: string;
  sessionId: string;
  agent: string;
  /** How long one tool call may wait for its answer (an approval included); one hour by default. */
  timeoutMs?: number;
}): Promise<{ server: import('@openai/agents').MCPServerStreamableHttp; wrapModel(model: Model): Model; close(): Promise<void> }>;
