import { tool } from '@openai/agents';
import { StepTurns } from './step-turns.js';

function functionCallsOf(output, names) {
  return (output ?? [])
    .filter((item) => item.type === 'function_call' && names.has(item.name))
    .map((item) => ({ toolCallId: item.callId, name: item.name, arguments: item.arguments ? JSON.parse(item.arguments) : {} }));
}

/**
 * An agent's Ratchet tools for the OpenAI Agents SDK, and `wrapModel`, which makes the function
 * calls of each model response run as one Ratchet turn named by the response id:
 *
 * ```js
 * const ratchet = await ratchetAgentTools({ client, sessionId, agent: 'order-support' });
 * const agent = new Agent({ name: 'support', tools: ratchet.tools, model: ratchet.wrapModel(model) });
 * ```
 *
 * A call that does not succeed reaches the model as Ratchet's own text for it (a person's
 * rejection and reason, a skipped write, an unknown outcome), never as an invitation to retry.
 */
export async function ratchetAgentTools({ client, sessionId, agent, only }) {
  const catalogue = await client.tools(agent);
  const selected = only ? catalogue.filter((t) => only.includes(t.name)) : catalogue;
  const turns = new StepTurns({ client, sessionId, agent });
  const names = new Set(selected.map((t) => t.name));
  const tools = selected.map((t) => tool({
    name: t.name,
    description: t.description || t.name,
    parameters: { additionalProperties: true, ...(t.inputSchema ?? { type: 'object' }) },
    strict: false,
    execute: (input, _context, details) => turns.execute(details?.toolCall?.callId, t.name,
      typeof input === 'string' ? JSON.parse(input || '{}') : input),
    errorFunction: (_context, error) => error.message,
  }));
  return {
    tools,
    turns,
    wrapModel(model) {
      return {
        ...model,
        async getResponse(request) {
          const response = await model.getResponse(request);
          turns.record(response.responseId, functionCallsOf(response.output, names));
          return response;
        },
        async *getStreamedResponse(request) {
          for await (const event of model.getStreamedResponse(request)) {
            if (event.type === 'response_done') {
              turns.record(event.response?.id, functionCallsOf(event.response?.output, names));
            }
            yield event;
          }
        },
      };
    },
  };
}
