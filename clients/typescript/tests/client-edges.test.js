import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { MissingCallIdError, RatchetClient, RatchetError, StepTurns } from '../src/index.js';
import { agentClient, env, unique, writesFor } from './support.js';

const BAD_GATEWAY = '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>';

/** A proxy in front of Ratchet that answers its first `failures` requests with an HTML 502 page. */
async function flakyProxy(failures) {
  const seen = { failed: 0, forwarded: 0 };
  const server = createServer(async (req, res) => {
    if (seen.failed < failures) {
      seen.failed++;
      res.writeHead(502, { 'Content-Type': 'text/html' }).end(BAD_GATEWAY);
      return;
    }
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const forwarded = ['authorization', 'accept', 'last-event-id', 'content-type'].filter((h) => req.headers[h]);
    const upstream = new AbortController();
    res.on('close', () => upstream.abort());
    const answer = await fetch(env.url + req.url, {
      signal: upstream.signal, method: req.method, headers: Object.fromEntries(forwarded.map((h) => [h, req.headers[h]])),
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    seen.forwarded++;
    res.writeHead(answer.status, { 'Content-Type': answer.headers.get('content-type') ?? 'application/json' });
    Readable.fromWeb(answer.body).on('error', () => res.destroy()).pipe(res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${server.address().port}`, seen, close: () => server.close() && server.closeAllConnections() };
}

test('a proxy\'s HTML 502 pages are retried, and the turn runs once through them', async () => {
  const proxy = await flakyProxy(2);
  try {
    const client = new RatchetClient({ baseUrl: proxy.url, token: env.agentToken });
    const order = unique('o');
    const answer = await client.runTurn(unique('s'), { agent: env.agent, turnId: 't1',
      calls: [{ name: 'add_note', arguments: { order, note: 'through a proxy' } }] });
    assert.equal(RatchetClient.valueOf(RatchetClient.callsOf(answer)[0]).done, 'add_note');
    assert.equal(proxy.seen.failed, 2);
    assert.deepEqual(await writesFor(order), { add_note: 1 });
  } finally {
    proxy.close();
  }
});

test('a proxy that keeps answering HTML ends in a typed error that names the proxy, never a JSON parse error', async () => {
  const proxy = await flakyProxy(Infinity);
  try {
    const client = new RatchetClient({ baseUrl: proxy.url, token: env.agentToken });
    await assert.rejects(client.runTurn(unique('s'), { agent: env.agent, turnId: 't1',
      calls: [{ name: 'look_up_order', arguments: { order: '1' } }] }, { timeoutMs: 1_500 }),
    (e) => e instanceof RatchetError && e.status === 502 && e.code === 'HTTP_502' && e.retryable
      && /not Ratchet's JSON/.test(e.message) && /502 Bad Gateway/.test(e.message) && !/JSON at position|Unexpected token/.test(e.message));
    assert.ok(proxy.seen.failed >= 2, `retried ${proxy.seen.failed} times`);
  } finally {
    proxy.close();
  }
});

test('the event stream reconnects through a proxy\'s 502 page', async () => {
  const sessionId = unique('s');
  await agentClient().runTurn(sessionId, { agent: env.agent, turnId: 't1', calls: [{ name: 'look_up_order', arguments: { order: '7' } }] });
  const proxy = await flakyProxy(1);
  try {
    const controller = new AbortController();
    const types = [];
    for await (const event of new RatchetClient({ baseUrl: proxy.url, token: env.agentToken }).events(sessionId, { signal: controller.signal })) {
      types.push(event.type);
      if (event.type === 'turn.completed') controller.abort();
    }
    assert.ok(types.includes('turn.submitted') && types.includes('turn.completed'), types.join());
    assert.equal(proxy.seen.failed, 1);
  } finally {
    proxy.close();
  }
});

test('a tool call without the model\'s call id is refused, not merged with an identical earlier call', async () => {
  const sessionId = unique('s');
  const order = unique('o');
  const turns = new StepTurns({ client: agentClient(), sessionId, agent: env.agent });
  const args = { order, note: 'same words' };
  await assert.rejects(turns.execute(undefined, 'add_note', args), (e) => e instanceof MissingCallIdError
    && /no tool call id/.test(e.message) && /did not run/.test(e.message));
  await turns.execute('call_a', 'add_note', args);
  await turns.execute('call_b', 'add_note', args);
  assert.deepEqual(await writesFor(order), { add_note: 2 });
});
