// Ratchet dashboard: plain JavaScript, no build step.
// Every value that comes from the API (tool arguments, reasons, errors, names) is untrusted and is
// put on the page with textContent only; this file never assigns innerHTML.
'use strict';

// vocab: error codes, event types, call statuses and outcomes, generated from the server's enums
const state = { me: null, csrf: null, vocab: null, view: null, timers: [], source: null };

// ------------------------------------------------------------------ helpers

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'className') node.className = v;
    else if (k === 'text') node.textContent = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else if (k === 'disabled' || k === 'hidden') node[k] = true;
    else node.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

async function api(method, path, body) {
  const headers = { 'Accept': 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && state.csrf) headers['X-CSRF-Token'] = state.csrf;
  const r = await fetch(path, { method, headers, credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body) });
  if (r.status === 401) { location.href = '/login.html'; throw new Error('not logged in'); }
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) {
    const known = data && state.vocab && state.vocab.errorCodes[data.code];
    const err = new Error((data && data.message) || (known && known.meaning) || ('HTTP ' + r.status));
    err.status = r.status; err.code = data && data.code;
    throw err;
  }
  return data;
}

function when(ms) {
  if (!ms) return '';
  const d = new Date(ms);
  const ago = Math.max(0, Math.round((Date.now() - ms) / 1000));
  const rel = ago < 60 ? ago + ' s ago' : ago < 3600 ? Math.round(ago / 60) + ' min ago' : Math.round(ago / 3600) + ' h ago';
  return d.toLocaleString() + ' (' + rel + ')';
}

function duration(ms) {
  if (ms === undefined || ms === null) return '';
  return ms < 1000 ? ms + ' ms' : (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + ' s';
}

function json(value) {
  return el('pre', { className: 'json', text: JSON.stringify(value, null, 2) });
}

function statusBadge(call) {
  if (call.skipped) {
    return el('span', { className: 'badge b-skipped', 'data-status': 'skipped',
      title: 'did not run, safe to call again', text: 'skipped: did not run, safe to call again' });
  }
  return el('span', { className: 'badge b-' + call.status, 'data-status': call.status,
    text: (state.vocab.callStatuses[call.status] || {}).label || call.status });
}

function canDecide() {
  return state.me && state.me.role === 'approver';
}

function clearView() {
  state.timers.forEach(t => clearInterval(t));
  state.timers = [];
  if (state.source) { state.source.close(); state.source = null; }
}

function setActive(name) {
  for (const n of ['inbox', 'sessions', 'tools', 'connections']) {
    document.getElementById('nav-' + n).classList.toggle('active', n === name);
  }
}

// ------------------------------------------------------------------ approvals inbox

const inbox = { cards: new Map() };

async function refreshCount() {
  try {
    const data = await api('GET', '/api/approvals');
    const n = data.approvals.length;
    const c = document.getElementById('inbox-count');
    c.textContent = String(n);
    c.classList.toggle('zero', n === 0);
    return data.approvals;
  } catch (e) {
    return null;
  }
}

function approvalCard(r) {
  const reason = el('input', { type: 'text', className: 'reason', placeholder: 'Reason (required to reject)',
    'aria-label': 'Reason', maxlength: 2000 });
  const message = el('p', { className: 'error', hidden: true });
  const decide = async (approved) => {
    if (!approved && !reason.value.trim()) {
      message.textContent = 'Give a reason for the rejection; the model is told it.';
      message.hidden = false;
      return;
    }
    buttons.forEach(b => { b.disabled = true; });
    try {
      await api('POST', '/api/approvals/' + encodeURIComponent(r.sessionId) + '/' + encodeURIComponent(r.callId),
        { argumentsHash: r.argumentsHash, approved, reason: reason.value.trim() || null });
      card.remove();
      inbox.cards.delete(r.callId);
      refreshCount();
    } catch (e) {
      message.textContent = e.message;
      message.hidden = false;
      buttons.forEach(b => { b.disabled = !canDecide(); });
    }
  };
  const approve = el('button', { type: 'button', className: 'approve', disabled: !canDecide(),
    onclick: () => decide(true) }, 'Approve');
  const reject = el('button', { type: 'button', className: 'reject', disabled: !canDecide(),
    onclick: () => decide(false) }, 'Reject');
  const buttons = [approve, reject];
  const card = el('section', { className: 'card approval', 'data-call-id': r.callId, 'data-session-id': r.sessionId },
    el('h3', {}, el('span', { className: 'tool', text: r.tool }), ' ',
      el('span', { className: 'badge b-effect', text: r.effectClass })),
    el('dl', { className: 'meta' },
      el('dt', {}, 'Agent'), el('dd', { className: 'agent', text: r.agent }),
      el('dt', {}, 'Session'), el('dd', {}, el('a', { href: '#/session/' + encodeURIComponent(r.sessionId),
        className: 'session', text: r.sessionId })),
      el('dt', {}, 'Turn'), el('dd', { text: r.turnId }),
      el('dt', {}, 'Why approval'), el('dd', { className: 'why', text: r.askedBecause }),
      el('dt', {}, 'Asked'), el('dd', { className: 'asked', text: when(r.requestedAt) }),
      r.expiresAt ? el('dt', {}, 'Expires') : null, r.expiresAt ? el('dd', { text: when(r.expiresAt) }) : null,
      el('dt', {}, 'Call id'), el('dd', { className: 'muted', text: r.callId })),
    el('div', {}, el('span', { className: 'muted' }, 'Arguments')),
    (() => { const p = json(r.arguments); p.classList.add('arguments'); return p; })(),
    el('div', { className: 'note', text: 'Arguments hash ' + r.argumentsHash + ' (your decision applies to exactly these arguments)' }),
    el('div', { className: 'decide' }, reason, approve, reject),
    canDecide() ? null : el('p', { className: 'notice viewer-note' }, 'You are a viewer: you can see requests but not decide them.'),
    message);
  return card;
}

function showInbox() {
  setActive('inbox');
  inbox.cards = new Map();
  const list = el('div', { id: 'approvals' });
  const empty = el('p', { className: 'empty', id: 'inbox-empty' }, 'No write is waiting for approval.');
  document.getElementById('view').replaceChildren(el('h2', {}, 'Waiting for approval'), empty, list);
  const tick = async () => {
    const approvals = await refreshCount();
    if (!approvals) return;
    const live = new Set(approvals.map(a => a.callId));
    for (const [id, card] of inbox.cards) {
      if (!live.has(id)) { card.remove(); inbox.cards.delete(id); }
    }
    for (const r of approvals) {
      if (!inbox.cards.has(r.callId)) {
        const card = approvalCard(r);
        inbox.cards.set(r.callId, card);
        list.append(card);
      }
    }
    empty.hidden = inbox.cards.size > 0;
  };
  tick();
  state.timers.push(setInterval(tick, 1500));
}

// ------------------------------------------------------------------ sessions

async function showSessions(offset) {
  setActive('sessions');
  const limit = 50;
  const data = await api('GET', '/api/sessions?offset=' + offset + '&limit=' + limit);
  const rows = data.sessions.map(s => el('tr', { 'data-session-id': s.sessionId },
    el('td', {}, el('a', { href: '#/session/' + encodeURIComponent(s.sessionId), text: s.sessionId })),
    el('td', { text: s.agent || '' }),
    el('td', { text: s.caller || '—' }),
    el('td', { text: when(s.updatedAt) }),
    el('td', { text: when(s.createdAt) })));
  // the server says where the next page starts: a page shows only your tenants' sessions, so it
  // may cover more of the session index than its length
  const next = data.next ? parseInt(new URLSearchParams(data.next.split('?')[1]).get('offset'), 10) : null;
  const pager = el('p', {},
    offset > 0 ? el('a', { href: '#/sessions/0' }, '← newest') : null, ' ',
    next !== null ? el('a', { href: '#/sessions/' + next }, 'older →') : null);
  document.getElementById('view').replaceChildren(el('h2', {}, 'Sessions'),
    rows.length === 0 ? el('p', { className: 'empty' }, 'No sessions yet.')
      : el('table', { id: 'sessions' }, el('thead', {}, el('tr', {}, el('th', {}, 'Session'), el('th', {}, 'Agent'),
        el('th', {}, 'Caller'), el('th', {}, 'Last activity'), el('th', {}, 'Started'))), el('tbody', {}, rows)),
    pager);
}

const reconcileDrafts = new Map();

function reconcileForm(sessionId, call, after) {
  const outcome = el('select', { className: 'outcome', 'aria-label': 'Outcome' },
    el('option', { value: 'succeeded' }, 'It happened (succeeded)'),
    el('option', { value: 'failed' }, 'It did not happen (failed)'));
  const note = el('input', { type: 'text', className: 'note-input', placeholder: 'What you checked at the provider',
    'aria-label': 'Note', maxlength: 2000 });
  const message = el('p', { className: 'error', hidden: true });
  const button = el('button', { type: 'button', className: 'primary reconcile', onclick: async () => {
    if (!note.value.trim()) { message.textContent = 'Say what you checked.'; message.hidden = false; return; }
    button.disabled = true;
    try {
      await api('POST', '/api/sessions/' + encodeURIComponent(sessionId) + '/calls/' + encodeURIComponent(call.callId)
        + '/reconcile', { outcome: outcome.value, note: note.value.trim() });
      reconcileDrafts.delete(call.callId);
      after();
    } catch (e) {
      message.textContent = e.message; message.hidden = false; button.disabled = false;
    }
  } }, 'Reconcile');
  // a live re-render must not wipe what a person is typing: keep drafts by call id
  const draft = reconcileDrafts.get(call.callId);
  if (draft) { note.value = draft.note; outcome.value = draft.outcome; }
  const remember = () => reconcileDrafts.set(call.callId, { note: note.value, outcome: outcome.value });
  note.addEventListener('input', remember);
  outcome.addEventListener('change', remember);
  return el('div', { className: 'reconcile-box' },
    el('p', { className: 'notice' }, 'This write may or may not have reached the provider. Check there, then record what you found.'),
    el('div', { className: 'decide' }, outcome, note, button), message);
}

function callView(sessionId, call, reload) {
  const a = call.approval;
  const details = el('dl', { className: 'meta' },
    el('dt', {}, 'Call id'), el('dd', { className: 'muted', text: call.callId }),
    call.effectClass ? el('dt', {}, 'Effect class') : null, call.effectClass ? el('dd', { text: call.effectClass }) : null,
    el('dt', {}, 'Attempts'), el('dd', { className: 'attempts', text: String(call.attemptCount !== undefined ? call.attemptCount : call.attempts.length) }),
    call.durationMs !== undefined ? el('dt', {}, 'Duration') : null,
    call.durationMs !== undefined ? el('dd', { className: 'duration', text: duration(call.durationMs) }) : null,
    call.approvalWaitMs ? el('dt', {}, 'Waited for approval') : null,
    call.approvalWaitMs ? el('dd', { className: 'approval-wait', text: duration(call.approvalWaitMs) }) : null,
    call.error ? el('dt', {}, 'Error') : null, call.error ? el('dd', { className: 'call-error', text: call.error }) : null,
    a ? el('dt', {}, 'Approval') : null,
    a ? el('dd', { className: 'approval-info', text: [a.status, a.askedBecause ? '· ' + a.askedBecause : '',
      a.approver ? '· by ' + a.approver : '', a.reason ? '· "' + a.reason + '"' : '', a.decidedAt ? '· ' + when(a.decidedAt) : '']
      .filter(Boolean).join(' ') }) : null,
    call.reconciled ? el('dt', {}, 'Reconciled') : null,
    call.reconciled ? el('dd', { className: 'reconciled-info', text: 'was ' + call.reconciled.from + ', set to '
      + call.reconciled.outcome + ' by ' + call.reconciled.by + ' ' + when(call.reconciled.at) + ': ' + call.reconciled.note }) : null);
  const args = json(call.arguments); args.classList.add('arguments');
  return el('div', { className: 'call', 'data-call-id': call.callId, 'data-tool': call.tool },
    el('div', { className: 'call-head' }, el('span', { className: 'muted', text: '#' + call.index }),
      el('span', { className: 'tool', text: call.tool }), statusBadge(call),
      call.durationMs !== undefined ? el('span', { className: 'muted', text: duration(call.durationMs)
        + (call.approvalWaitMs ? ' (+ ' + duration(call.approvalWaitMs) + ' waiting for approval)' : '') }) : null),
    details, el('div', { className: 'muted' }, 'Arguments'), args,
    call.result !== undefined ? el('div', { className: 'muted' }, 'Result') : null,
    call.result !== undefined ? json(call.result) : null,
    call.status === 'outcome_unknown' && canDecide() ? reconcileForm(sessionId, call, reload) : null);
}

// the agent loop's conversation: user messages, model responses and answers, with a box to send one
function conversationView(sessionId, t, reload) {
  const messages = t.messages || [];
  if (!messages.length) return null;
  const lines = messages.map(m => {
    let who; let text;
    if (m.kind === 'user') { who = 'user'; text = m.text; }
    else if (m.kind === 'model') {
      who = 'model · step ' + m.step;
      text = (m.text || '') + (m.tools ? (m.text ? ' ' : '') + '→ asks for ' + m.tools.join(', ') + ' (turn ' + m.turnId + ')' : '');
    } else if (m.kind === 'model_attempt_failed') { who = 'model · step ' + m.step; text = 'request failed: ' + m.error; }
    else { who = 'answer · ' + m.status; text = m.text || m.error || ''; }
    return el('div', { className: 'message message-' + m.kind },
      el('span', { className: 'muted', text: when(m.at) + ' ' + who + ': ' }), el('span', { text }));
  });
  const input = el('input', { type: 'text', className: 'message-input', placeholder: 'Message to the agent', 'aria-label': 'Message' });
  const error = el('span', { className: 'error' });
  const send = el('button', { type: 'submit', disabled: !canDecide(), text: 'Send' });
  const form = el('form', { className: 'message-form', onsubmit: async ev => {
    ev.preventDefault();
    if (!input.value.trim()) return;
    send.disabled = true;
    try {
      await api('POST', '/api/sessions/' + encodeURIComponent(sessionId) + '/messages', { agent: t.agent, text: input.value });
      input.value = '';
      error.textContent = '';
      reload();
    } catch (e) {
      error.textContent = e.message;
    } finally {
      send.disabled = !canDecide();
    }
  } }, input, send, error);
  return el('section', { className: 'card conversation' }, el('h3', {}, 'Conversation'), ...lines, form);
}

async function showSession(sessionId) {
  setActive('sessions');
  const view = document.getElementById('view');
  // the timeline comes a page of turns at a time, latest first; "Show earlier turns" adds a page
  let pages = 1;
  const render = async () => {
    let t;
    let all;
    let earlier;
    try {
      t = await api('GET', '/api/sessions/' + encodeURIComponent(sessionId));
      all = t.turns;
      earlier = t.earlier;
      for (let p = 1; p < pages && earlier; p++) {
        const older = await api('GET', earlier);
        all = older.turns.concat(all);
        earlier = older.earlier;
      }
    } catch (e) {
      view.replaceChildren(el('h2', {}, 'Session'), el('p', { className: 'error', text: e.message }));
      return;
    }
    const more = earlier ? el('p', {}, el('button', { type: 'button', className: 'earlier-turns',
      onclick: () => { pages++; render(); } }, 'Show earlier turns'),
      el('span', { className: 'muted', text: ' ' + all.length + ' of ' + t.turnsTotal + ' turns shown' })) : null;
    const turns = all.slice().reverse().map(turn => el('section', { className: 'card turn', 'data-turn-id': turn.turnId },
      el('h3', {}, 'Turn ', el('span', { text: turn.turnId }), ' ',
        el('span', { className: 'badge ' + (turn.status === 'completed' ? 'b-succeeded' : 'b-running'), text: turn.status })),
      el('p', { className: 'muted', text: 'submitted ' + when(turn.submittedAt)
        + (turn.durationMs !== undefined ? ' · took ' + duration(turn.durationMs) : '') }),
      turn.calls.map(c => callView(sessionId, c, render))));
    view.replaceChildren(el('h2', {}, 'Session ', el('span', { id: 'session-id', text: sessionId })),
      el('p', { className: 'muted', text: 'agent ' + (t.agent || '?') + (t.caller ? ' · caller ' + t.caller : '')
        + (t.creator ? ' · created by ' + t.creator : '') + ' · started ' + when(t.createdAt) }),
      conversationView(sessionId, t, render),
      ...(turns.length ? turns : [el('p', { className: 'empty' }, 'No turns yet.')]), more);
  };
  await render();
  // live: the event stream says something changed; fetch the timeline again, at most every 300 ms
  let pending = null;
  state.source = new EventSource('/api/sessions/' + encodeURIComponent(sessionId) + '/events');
  const nudge = () => {
    if (pending) return;
    pending = setTimeout(() => { pending = null; if (!document.querySelector('.reconcile-box input:focus')) render(); }, 300);
  };
  for (const type of Object.keys(state.vocab.eventTypes)) {
    state.source.addEventListener(type, nudge);
  }
}

// ------------------------------------------------------------------ tools

async function showTools() {
  setActive('tools');
  const agents = (await api('GET', '/api/agents')).agents;
  const sections = [];
  for (const a of agents) {
    const catalog = await api('GET', '/api/agents/' + encodeURIComponent(a.name) + '/tools');
    const tools = catalog.tools;
    const origins = {};
    (a.sources || []).forEach(s => { origins[s.source] = s.origin; });
    const sources = el('ul', { className: 'sources' }, (catalog.sources || []).map(h => el('li', {},
      el('span', { text: h.source + ' ' }),
      el('span', { className: 'badge b-health-' + h.status, text: h.status }),
      el('span', { className: 'detail', text: (h.detail ? ' ' + h.detail : '')
        + (origins[h.source] ? ' (' + origins[h.source] + ')' : '') }))));
    const declared = el('p', { className: 'detail', text: a.origin ? 'Declared in ' + a.origin : '' });
    sections.push(el('section', { className: 'card' }, el('h3', { text: a.name }), declared, sources,
      el('table', {}, el('thead', {}, el('tr', {}, ['Tool', 'Source', 'Effect class', 'Step', 'Approval', 'Description']
        .map(h => el('th', {}, h)))),
        el('tbody', {}, tools.map(t => el('tr', {}, el('td', { text: t.name }),
          el('td', { text: t.source + (t.toolSource ? ' (' + t.toolSource + ')' : '') }),
          el('td', {}, el('span', { className: 'badge b-effect', text: t.effectClass })),
          el('td', { text: t.step }), el('td', { text: t.approval }), el('td', { text: t.description || '' })))))));
  }
  document.getElementById('view').replaceChildren(el('h2', {}, 'Tool catalogue'),
    ...(sections.length ? sections : [el('p', { className: 'empty' }, 'No agents registered.')]));
}

// ------------------------------------------------------------------ routing

function route() {
  clearView();
  const hash = location.hash || '#/inbox';
  const parts = hash.slice(2).split('/');
  const show = parts[0] === 'sessions' ? showSessions(parseInt(parts[1] || '0', 10) || 0)
    : parts[0] === 'session' ? showSession(decodeURIComponent(parts.slice(1).join('/')))
    : parts[0] === 'tools' ? showTools()
    : parts[0] === 'connections' ? (setActive('connections'), showConnections()) : showInbox();
  Promise.resolve(show).catch(e => document.getElementById('view')
    .replaceChildren(el('p', { className: 'error', text: e.message })));
}

document.addEventListener('DOMContentLoaded', async () => {
  const [me, vocab] = await Promise.all([api('GET', '/api/me'), api('GET', '/assets/vocabulary.json')]);
  state.me = me;
  state.vocab = vocab;
  state.csrf = me.csrfToken;
  document.getElementById('me').textContent = me.name + ' (' + me.role + ')';
  document.getElementById('logout').addEventListener('click', async () => {
    try { await api('POST', '/logout'); } finally { location.href = '/login.html'; }
  });
  window.addEventListener('hashchange', route);
  route();
  // the approvals count in the header stays live on every page
  setInterval(refreshCount, 5000);
});
