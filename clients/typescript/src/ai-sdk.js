import { jsonSchema, tool, wrapLanguageModel } from 'ai';
import { StepTurns } from './step-turns.js';

function toolCallsOf(content, names) {
  return content
    .filter((part) => part.type === 'tool-call' && names.has(part.toolName) && !part.providerExecuted)
    .map((part) => ({
      toolCallId: part.toolCallId,
      name: part.toolName,
      arguments: typeof part.input === 'string' ? (part.input ? JSON.parse(part.input) : {}) : part.input ?? {},
    }));
}

/**
 * A middleware that records each model response's tool calls as one Ratchet turn. In a stream the
 * tool calls are held back until the response finishes, so that all of them are known before the
 * first one executes.
 */
export function ratchetMiddleware(turns, names) {
  return {
    async wrapGenerate({ doGenerate }) {
      const result = await doGenerate();
      turns.record(result.response?.id, toolCallsOf(result.content ?? [], names));
      return result;
    },
    async wrapStream({ doStream }) {
      const { stream, ...rest } = await doStream();
      let responseId;
      const held = [];
      const transform = new TransformStream({
        transform(part, controller) {
          if (part.type === 'response-metadata' && part.id) responseId = part.id;
          if (part.type === 'tool-call' && names.has(part.toolName) && !part.providerExecuted) {
            held.push(part);
            return;
          }
          if (part.type === 'finish') {
            turns.record(responseId, toolCallsOf(held, names));
            held.forEach((p) => controller.enqueue(p));
            held.length = 0;
          }
          controller.enqueue(part);
        },
        flush(controller) {
          if (held.length) {
            turns.record(responseId, toolCallsOf(held, names));
            held.forEach((p) => controller.enqueue(p));
          }
        },
      });
      return { stream: stream.pipeThrough(transform), ...rest };
    },
  };
}

/**
 * An agent's Ratchet tools for the Vercel AI SDK, and the model wrapped so that the tool calls of
 * each step run as one Ratchet turn (writes in the model's order, later writes skipped after a
 * failed one, turn id from the model's response id):
 *
 * ```js
 * const { tools, model } = await ratchetTools({ client, sessionId, agent: 'order-support', model: openai('gpt-4.1-mini') });
 * const { text } = await generateText({ model, tools, stopWhen: stepCountIs(8), prompt });
 * ```
 *
 * A call that does not succeed throws, so the model reads Ratchet's text for it (a person's
 * rejection with its reason, a skipped write, an unknown outcome).
 */
export async function ratchetTools({ client, sessionId, agent, model, only }) {
  const catalogue = await client.tools(agent);
  const selected = only ? catalogue.filter((t) => only.includes(t.name)) : catalogue;
  const turns = new StepTurns({ client, sessionId, agent });
  const tools = {};
  for (const t of selected) {
    tools[t.name] = tool({
      description: t.description,
      inputSchema: jsonSchema(t.inputSchema ?? { type: 'object' }),
      execute: (input, { toolCallId, abortSignal }) => turns.execute(toolCallId, t.name, input, { signal: abortSignal }),
    });
  }
  const names = new Set(Object.keys(tools));
  return {
    tools,
    turns,
    model: model ? wrapLanguageModel({ model, middleware: ratchetMiddleware(turns, names) }) : undefined,
  };
}
