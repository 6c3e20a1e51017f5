import type { ToolProvider } from '@mastra/core/tool-provider';
import type { RatchetClient } from './index.js';

/** Ratchet as a Mastra tool provider: agents are toolkits, tools run durably through Ratchet. */
export class RatchetToolProvider implements ToolProvider {
  constructor(options: { client: RatchetClient; sessionId?: string; agents?: string[] });
  readonly info: ToolProvider['info'];
  readonly capabilities: NonNullable<ToolProvider['capabilities']>;
  readonly defaultScope: 'caller-supplied';
  listToolkits: NonNullable<ToolProvider['listToolkits']>;
  listTools: ToolProvider['listTools'];
  listToolkitsVNext: NonNullable<ToolProvider['listToolkitsVNext']>;
  listToolsVNext: NonNullable<ToolProvider['listToolsVNext']>;
  getToolSchema: NonNullable<ToolProvider['getToolSchema']>;
  getHealth: NonNullable<ToolProvider['getHealth']>;
  resolveTools: ToolProvider['resolveTools'];
  resolveToolsVNext: NonNullable<ToolProvider['resolveToolsVNext']>;
  /** The agent's model wrapped so that the tool calls of each response run as one Ratchet turn. */
  wrapModel<M>(model: M, options: { sessionId: string; agent: string }): Promise<M>;
}
