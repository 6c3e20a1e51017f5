// Ratchet dashboard: plain JavaScript, no build step.
// Every value that comes from the API (tool arguments, reasons, errors, names) is untrusted and is
// put on the page with textContent only; this file never assigns innerHTML.
'use strict';

// vocab: error codes, event types, call statuses and outcomes, generated from the server's enums
const state = { me: null, csrf: null, vocab: null, view: null, timers: [], source: null };

// ------------------------------------------------------------------ helpers

/** A call status in words, from the vocabulary the server generates. */
function statusLabel(status) {
  return ((state.vocab && state.vocab.callStatuses[status]) || {}).label || status;
}

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'className') node.className = v;
    else if (k === 'text') showText(node, v);
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else if (k === 'disabled' || k === 'hidden') node[k] = true;
    else node.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    if (c instanceof Node) node.append(c);
    else showText(node, String(c), true);
  }
  return node;
}

// text from the API, shown with what would not show as itself escaped (visible.js)
function showText(node, text, append) {
  const shown = Visible.shown(String(text));
  if (append) node.append(shown.text); else node.textContent = shown.text;
  if (shown.unusual) node.classList.add('unusual-text');
}

// replaceChildren would print a missing part as the text "null": leave it out instead
function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter(c => c !== undefined && c !== null && c !== false));
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
    text: statusLabel(call.status) });
}

function canDecide() {
  return state.me && state.me.role === 'approver';
}

function clearView() {
  state.timers.forEach(t => clearInterval(t));
  state.timers = [];
  if (state.source) { state.source.close(); state.source = null; }
  inbox.list = null;
  // a page's reads still under way when the reader moves on must not draw over the next page
  state.page = (state.page || 0) + 1;
}

function setActive(name) {
  for (const n of ['inbox', 'sessions', 'reconcile', 'tools', 'connections']) {
    const link = document.getElementById('nav-' + n);
    if (!link) continue;
    link.classList.toggle('active', n === name);
    if (n === name) link.setAttribute('aria-current', 'page'); else link.removeAttribute('aria-current');
  }
}

// ------------------------------------------------------------------ connection

// the page is live only while the inbox stream delivers: an error, or no word (not even its ping)
// for a while, shows the banner and disables every button that would change something
const live = { online: true, lastWord: 0, source: null, inbox: null };
const SILENT_MS = 15000;

function mayAct() {
  return canDecide() && live.online;
}

function setOnline(online) {
  if (live.online === online) return;
  live.online = online;
  const banner = document.getElementById('offline');
  if (banner) banner.hidden = online;
  document.body.classList.toggle('offline', !online);
  for (const b of document.querySelectorAll('button[data-acts]')) {
    b.disabled = !mayAct() || b.dataset.busy === 'true';
  }
}

function heard() {
  live.lastWord = Date.now();
  setOnline(true);
}

function openInboxStream() {
  const source = new EventSource('/api/approvals/events');
  live.source = source;
  source.addEventListener('open', heard);
  source.addEventListener('ping', heard);
  source.addEventListener('inbox', ev => {
    heard();
    live.inbox = JSON.parse(ev.data).approvals;
    showCount(live.inbox.length);
    showReconcileCount(JSON.parse(ev.data).needsReconciliation || 0);
    if (inbox.list) inbox.update(live.inbox);
  });
  source.addEventListener('error', () => {
    if (source.readyState !== EventSource.OPEN) setOnline(false);
  });
  setInterval(() => {
    if (Date.now() - live.lastWord > SILENT_MS) setOnline(false);
  }, 2000);
}

// a button that changes something: enabled only for an approver while the server is reachable
function actButton(props, label) {
  const b = el('button', Object.assign({ type: 'button', 'data-acts': 'true', disabled: !mayAct() }, props), label);
  return b;
}

function busy(buttons, on) {
  buttons.forEach(b => { b.dataset.busy = on ? 'true' : 'false'; b.disabled = on || !mayAct(); });
}

// ------------------------------------------------------------------ approvals inbox

const inbox = { cards: new Map(), list: null, empty: null, update: () => {}, settle: () => {} };

function showCount(n) {
  const c = document.getElementById('inbox-count');
  c.textContent = String(n);
  c.classList.toggle('zero', n === 0);
}

async function refreshCount() {
  try {
    const data = await api('GET', '/api/approvals');
    showCount(data.approvals.length);
    return data.approvals;
  } catch (e) {
    return null;
  }
}

// "waited 80 s for approval · ran 12 ms": the wait for a person is never counted as running time
function timing(call) {
  const parts = [];
  if (call.approvalWaitMs) parts.push('waited ' + duration(call.approvalWaitMs) + ' for approval');
  const refused = call.approval && (call.approval.status === 'rejected' || call.approval.status === 'expired');
  if (refused || call.skipped) parts.push('did not run');
  else if (call.durationMs !== undefined && call.durationMs !== null) parts.push('ran ' + duration(call.durationMs));
  return parts.join(' · ');
}

function contextView(r) {
  const c = r.context || {};
  const rows = [];
  const row = (label, className, value) => {
    if (value === undefined || value === null || value === '') return;
    rows.push(el('dt', {}, label), el('dd', { className, text: value }));
  };
  row('Caller', 'caller', c.caller);
  row('Created by', 'creator', c.creator);
  row('Tool does', 'tool-description', c.toolDescription);
  row('Effect', 'effect-words', c.effect);
  row('Why approval', 'why', c.rule || r.askedBecause);
  const convo = (c.userMessage || c.modelText) ? el('div', { className: 'context-conversation' },
    c.userMessage ? el('p', { className: 'context-user' }, el('span', { className: 'muted' }, 'User: '),
      el('span', { text: c.userMessage })) : null,
    c.modelText ? el('p', { className: 'context-model' }, el('span', { className: 'muted' }, 'Model: '),
      el('span', { text: c.modelText })) : null) : null;
  const earlier = (c.earlierCalls || []).length ? el('div', { className: 'earlier-calls' },
    el('div', { className: 'muted' }, 'Earlier in this turn'),
    c.earlierCalls.map(e => el('div', { className: 'earlier-call', 'data-tool': e.tool },
      el('span', { className: 'tool', text: e.tool }), ' ',
      el('span', { className: 'badge b-' + e.status, text: statusLabel(e.status) }),
      el('details', {}, el('summary', {}, 'arguments and result'), json(e.arguments),
        e.result !== undefined ? json(e.result) : null, e.error ? el('p', { className: 'error', text: e.error }) : null),
      e.result !== undefined ? el('div', { className: 'earlier-result', text: '→ ' + JSON.stringify(e.result) }) : null)))
    : null;
  return [convo, rows, earlier];
}

// "Edit, then approve": a form generated from the tool's input schema (string, number, integer and
// boolean properties), or the arguments as raw JSON when the schema has anything else
function editForm(r) {
  const schema = (r.context && r.context.inputSchema) || {};
  const props = schema.properties || {};
  const names = Object.keys(props);
  const simple = names.length > 0 && names.every(n => ['string', 'number', 'integer', 'boolean'].includes(props[n].type))
    && Object.keys(r.arguments || {}).every(n => props[n]);
  const form = el('div', { className: 'edit-form', hidden: true });
  let read;
  if (simple) {
    const inputs = names.map(n => {
      const p = props[n];
      const v = (r.arguments || {})[n];
      const input = p.type === 'boolean'
        ? el('input', { type: 'checkbox', 'data-field': n, checked: v === true })
        : el('input', { type: 'text', 'data-field': n, inputmode: p.type === 'string' ? undefined : 'decimal' });
      if (p.type !== 'boolean') input.value = v === undefined || v === null ? '' : String(v);
      return [n, p, input];
    });
    fill(form, inputs.map(([n, p, input]) => el('label', { className: 'edit-field' },
      el('span', { text: n + (p.type === 'string' ? '' : ' (' + p.type + ')') }), input,
      p.description ? el('span', { className: 'muted', text: p.description }) : null)));
    read = () => {
      const out = {};
      for (const [n, p, input] of inputs) {
        if (p.type === 'boolean') { out[n] = input.checked; continue; }
        const text = input.value;
        if (text === '' && !(r.arguments || {}).hasOwnProperty(n)) continue;
        // a number that does not parse goes as typed: the server names the field it refuses
        out[n] = p.type === 'string' || text.trim() === '' || isNaN(Number(text)) ? text : Number(text);
      }
      return out;
    };
  } else {
    const area = el('textarea', { className: 'edit-json', rows: 8, 'aria-label': 'Edited arguments (JSON)' });
    area.value = JSON.stringify(r.arguments || {}, null, 2);
    fill(form, el('label', { className: 'edit-field' }, el('span', { text: 'Arguments (JSON)' }), area));
    read = () => JSON.parse(area.value);
  }
  fill(form, [...form.childNodes], el('p', { className: 'note' },
    'The call runs with these arguments once you approve; they are checked against the tool\'s schema first.'));
  return { form, read };
}

function approvalCard(r) {
  const reason = el('input', { type: 'text', className: 'reason', placeholder: 'Reason (required to reject)',
    'aria-label': 'Reason', maxlength: 2000 });
  const message = el('p', { className: 'error', hidden: true, role: 'alert' });
  const status = el('p', { className: 'decision-status', hidden: true, role: 'status' });
  const decide = async (approved) => {
    if (!approved && !reason.value.trim()) {
      message.textContent = 'Give a reason for the rejection; the model is told it.';
      message.hidden = false;
      reason.focus();
      return;
    }
    const body = { argumentsHash: r.argumentsHash, approved, reason: reason.value.trim() || null };
    if (approved && editing) {
      try { body.arguments = edit.read(); } catch (e) {
        message.textContent = 'The arguments are not valid JSON: ' + e.message;
        message.hidden = false;
        return;
      }
    }
    busy(buttons, true);
    // the stream may report the request gone before this answer arrives: the card stays meanwhile
    card.classList.add('deciding');
    try {
      await api('POST', '/api/approvals/' + encodeURIComponent(r.sessionId) + '/' + encodeURIComponent(r.callId), body);
      message.hidden = true;
      card.classList.add('decided');
      card.dataset.decision = approved ? 'approved' : 'rejected';
      decideBox.hidden = true;
      status.hidden = false;
      status.textContent = approved ? (body.arguments ? 'approved with edited arguments — running' : 'approved — running')
        : 'rejected — the write will not run';
      inbox.settle(card);
      followOutcome(r, status, card);
    } catch (e) {
      message.textContent = e.message;
      message.hidden = false;
      card.classList.remove('deciding');
      busy(buttons, false);
    }
  };
  const approve = actButton({ className: 'approve', onclick: () => decide(true) }, 'Approve');
  const reject = actButton({ className: 'reject', onclick: () => decide(false) }, 'Reject');
  const buttons = [approve, reject];
  const c = r.context || {};
  const [conversation, contextRows, earlier] = contextView(r);
  let editing = false;
  const edit = c.allowEdit ? editForm(r) : null;
  const editToggle = edit ? actButton({ className: 'edit-arguments', onclick: () => {
    editing = !editing;
    edit.form.hidden = !editing;
    editToggle.textContent = editing ? 'Cancel edits' : 'Edit arguments';
    approve.textContent = editing ? 'Approve with edits' : 'Approve';
    reason.placeholder = editing ? 'Why you edited the arguments' : 'Reason (required to reject)';
  } }, 'Edit arguments') : null;
  if (edit) buttons.push(editToggle);
  const decideBox = el('div', { className: 'decide' }, reason, approve, reject, editToggle);
  const titleId = 'card-' + r.callId.replace(/[^A-Za-z0-9_-]/g, '_');
  const card = el('section', { className: 'card approval', 'data-call-id': r.callId, 'data-session-id': r.sessionId,
    'aria-labelledby': titleId },
    el('h3', { id: titleId }, el('span', { className: 'tool', text: r.tool }), ' ',
      el('span', { className: 'badge b-effect', text: r.effectClass })),
    conversation,
    el('dl', { className: 'meta' },
      el('dt', {}, 'Agent'), el('dd', { className: 'agent', text: r.agent }),
      el('dt', {}, 'Session'), el('dd', {}, el('a', { href: '#/session/' + encodeURIComponent(r.sessionId),
        className: 'session', text: r.sessionId })),
      el('dt', {}, 'Turn'), el('dd', { text: r.turnId }),
      contextRows,
      el('dt', {}, 'Asked'), el('dd', { className: 'asked', text: when(r.requestedAt) }),
      r.expiresAt ? el('dt', {}, 'Expires') : null, r.expiresAt ? el('dd', { text: when(r.expiresAt) }) : null,
      el('dt', {}, 'Call id'), el('dd', { className: 'muted call-id', text: r.callId })),
    earlier,
    el('div', {}, el('span', { className: 'muted' }, 'Arguments')),
    (() => { const p = json(r.arguments); p.classList.add('arguments'); return p; })(),
    el('div', { className: 'note', text: 'Arguments hash ' + r.argumentsHash + ' (your decision applies to exactly these arguments)' }),
    edit ? edit.form : null,
    c.onReject ? el('p', { className: 'on-reject' }, el('span', { className: 'muted' }, 'If you reject: '),
      el('span', { text: c.onReject })) : null,
    decideBox, status,
    canDecide() ? null : el('p', { className: 'notice viewer-note' }, 'You are a viewer: you can see requests but not decide them.'),
    message);
  return Visible.markUnusual(card);
}

// after a decision the card stays, saying what happens, until the call has its outcome
function followOutcome(r, status, card) {
  let done = false;
  const source = new EventSource('/api/sessions/' + encodeURIComponent(r.sessionId) + '/events');
  const check = async () => {
    if (done) return;
    try {
      const t = await api('GET', '/api/sessions/' + encodeURIComponent(r.sessionId));
      for (const turn of t.turns) {
        for (const call of turn.calls) {
          if (call.callId !== r.callId) continue;
          if (['succeeded', 'failed', 'outcome_unknown'].includes(call.status) && !done) {
            done = true;
            source.close();
            card.dataset.outcome = call.skipped ? 'skipped' : call.status;
            fill(status, statusBadge(call), ' ',
              el('span', { className: 'timing', text: timing(call) }),
              call.error ? el('span', { className: 'call-error', text: ' · ' + call.error }) : null, ' ',
              el('a', { href: '#/session/' + encodeURIComponent(r.sessionId), className: 'session' }, 'open the session'));
          }
        }
      }
    } catch (e) {
      // the stream's next event tries again
    }
  };
  // any step of a call, its turn or its approval may bring the decided card's outcome
  for (const type of Object.keys(state.vocab.eventTypes).filter(t => /^(call|turn|approval)\./.test(t))) {
    source.addEventListener(type, check);
  }
  source.addEventListener('open', check);
}

// focus: [sessionId, callId] of the card a notification linked to
function showInbox(focus) {
  setActive('inbox');
  inbox.cards = new Map();
  const list = el('div', { id: 'approvals' });
  const empty = el('p', { className: 'empty', id: 'inbox-empty' }, 'No write is waiting for approval.');
  const decided = el('div', { id: 'decided' });
  const decidedTitle = el('h2', { hidden: true }, 'Decided here');
  document.getElementById('view').replaceChildren(el('h2', {}, 'Waiting for approval'), empty, list,
    decidedTitle, decided);
  inbox.list = list;
  inbox.empty = empty;
  const showEmpty = () => { empty.hidden = list.querySelector('section.approval') !== null; };
  // a decided card leaves the waiting list for the one below it, where it shows the outcome
  inbox.settle = card => {
    decided.prepend(card);
    decidedTitle.hidden = false;
    showEmpty();
  };
  // cards are added and removed, never redrawn, so a half-typed reason survives every update
  inbox.update = approvals => {
    const pending = new Set(approvals.map(a => a.callId));
    for (const [id, card] of inbox.cards) {
      const kept = card.classList.contains('decided') || card.classList.contains('deciding');
      if (!pending.has(id) && !kept) { card.remove(); inbox.cards.delete(id); }
    }
    for (const r of approvals) {
      if (!inbox.cards.has(r.callId)) {
        const card = approvalCard(r);
        inbox.cards.set(r.callId, card);
        list.append(card);
      }
    }
    showEmpty();
    const wanted = focus && inbox.cards.get(focus[1]);
    if (wanted && !wanted.classList.contains('focused')) {
      wanted.classList.add('focused');
      wanted.setAttribute('tabindex', '-1');
      wanted.scrollIntoView({ block: 'start' });
      wanted.focus();
    }
  };
  if (live.inbox) inbox.update(live.inbox);
}

// ------------------------------------------------------------------ sessions

const SESSION_FILTERS = ['q', 'agent', 'caller', 'tool', 'outcome', 'status', 'from', 'to'];

// the filter form: its values live in the address (#/sessions/<offset>?agent=…), so a filtered view can be shared
function sessionFilterForm(params) {
  const field = (name, label, input) => {
    input.name = name;
    input.id = 'filter-' + name;
    if (params.get(name)) input.value = params.get(name);
    return el('label', { className: 'filter', for: input.id }, el('span', {}, label), input);
  };
  const text = (name, label, placeholder) => field(name, label, el('input', { type: 'text', placeholder }));
  const choice = (name, label, values) => field(name, label, el('select', {}, el('option', { value: '' }, 'any'),
    values.map(([v, t]) => el('option', { value: v }, t))));
  const time = (name, label) => {
    const input = el('input', { type: 'datetime-local' });
    const box = field(name, label, input);
    if (params.get(name)) {
      const d = new Date(parseInt(params.get(name), 10));
      input.value = new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
    }
    return box;
  };
  const form = el('form', { className: 'filters', id: 'session-filters', role: 'search', onsubmit: ev => {
    ev.preventDefault();
    const out = new URLSearchParams();
    for (const name of SESSION_FILTERS) {
      const input = form.elements[name];
      if (!input || !input.value) continue;
      out.set(name, input.type === 'datetime-local' ? String(new Date(input.value).getTime()) : input.value.trim());
    }
    location.hash = '#/sessions/0' + (out.toString() ? '?' + out.toString() : '');
  } },
    text('q', 'Session id', 'part of the id'), text('agent', 'Agent', 'agent name'), text('caller', 'Caller', 'tenant'),
    text('tool', 'Tool', 'tool name'),
    choice('outcome', 'A call', [...['succeeded', 'failed', 'outcome_unknown'].map(o => [o, statusLabel(o)]),
      ['skipped', 'was skipped'], ['rejected', 'was rejected']]),
    choice('status', 'Status', [...['waiting_for_approval', 'running'].map(o => [o, statusLabel(o)]), ['idle', 'idle']]),
    time('from', 'Active from'), time('to', 'Active until'),
    el('div', { className: 'filter-buttons' }, el('button', { type: 'submit', className: 'primary' }, 'Filter'),
      el('a', { href: '#/sessions/0', className: 'clear-filters' }, 'Clear')));
  return form;
}

/** The cluster this dashboard's node belongs to ({node, members}), or null when it runs alone. */
async function clusterInfo() {
  try {
    const r = await fetch('/health', { credentials: 'same-origin' });
    return (await r.json()).cluster || null;
  } catch (e) {
    return null;
  }
}

/** "3 calls · waiting for approval · look_up_order, refund_order" */
function callsText(summary) {
  const n = summary.calls;
  return [n === undefined ? null : n + (n === 1 ? ' call' : ' calls'), statusLabel(summary.status),
    summary.tools.length ? summary.tools.join(', ') : null].filter(Boolean).join(' · ');
}

async function showSessions(offset, params) {
  setActive('sessions');
  params = params || new URLSearchParams();
  const limit = 50;
  const filters = new URLSearchParams();
  for (const name of SESSION_FILTERS) if (params.get(name)) filters.set(name, params.get(name));
  const suffix = filters.toString() ? '?' + filters.toString() : '';
  const page = state.page;
  const [data, cluster] = await Promise.all([
    api('GET', '/api/sessions?offset=' + offset + '&limit=' + limit + (suffix ? '&' + filters.toString() : '')),
    clusterInfo()]);
  if (page !== state.page) return;
  // in a cluster, which member runs each session
  const nodeCell = s => cluster ? el('td', { className: 'node', title: s.node || '', text: s.node
    ? s.node.substring(0, 8) + (s.node === cluster.node ? ' (this one)' : '') : '—' }) : null;
  const rows = data.sessions.map(s => el('tr', { 'data-session-id': s.sessionId },
    el('td', {}, el('a', { href: '#/session/' + encodeURIComponent(s.sessionId), text: s.sessionId }),
      isArchived(s) ? el('span', { className: 'badge b-archived', title: 'archived ' + when(s.archivedAt), text: 'archived' }) : null),
    el('td', { text: s.agent || '' }),
    el('td', { text: s.caller || '—' }),
    el('td', { text: when(s.updatedAt) }),
    el('td', { text: when(s.createdAt) }),
    nodeCell(s),
    el('td', { className: 'summary', text: s.summary ? callsText(s.summary) : '' })));
  // the server says where the next page starts: a page shows only your tenants' sessions, so it
  // may cover more of the session index than its length
  const next = data.next ? parseInt(new URLSearchParams(data.next.split('?')[1]).get('offset'), 10) : null;
  const pager = el('p', {},
    offset > 0 ? el('a', { href: '#/sessions/0' + suffix }, '← newest') : null, ' ',
    next !== null ? el('a', { href: '#/sessions/' + next + suffix, className: 'older' }, 'older →') : null);
  fill(document.getElementById('view'), el('h2', {}, 'Sessions'), sessionFilterForm(params),
    rows.length === 0 ? el('p', { className: 'empty' }, suffix ? 'No session matches these filters on this page.' : 'No sessions yet.')
      : el('table', { id: 'sessions' }, el('thead', {}, el('tr', {}, el('th', {}, 'Session'), el('th', {}, 'Agent'),
        el('th', {}, 'Caller'), el('th', {}, 'Last activity'), el('th', {}, 'Started'),
        cluster ? el('th', {}, 'Node') : null, el('th', {}, 'Calls'))),
        el('tbody', {}, rows)),
    pager);
}

// ------------------------------------------------------------------ needs reconciliation

async function showReconcile() {
  setActive('reconcile');
  const view = document.getElementById('view');
  const page = state.page;
  const render = async () => {
    const data = await api('GET', '/api/reconciliation');
    if (page !== state.page) return;
    showReconcileCount(data.calls.length);
    const cards = data.calls.map(c => el('section', { className: 'card unknown-call', 'data-call-id': c.callId,
      'data-session-id': c.sessionId },
      el('h3', {}, el('span', { className: 'tool', text: c.tool }), ' ',
        el('span', { className: 'badge b-outcome_unknown', text: statusLabel('outcome_unknown') })),
      el('dl', { className: 'meta' },
        el('dt', {}, 'Agent'), el('dd', { text: c.agent || '' }),
        c.caller ? el('dt', {}, 'Caller') : null, c.caller ? el('dd', { text: c.caller }) : null,
        el('dt', {}, 'Session'), el('dd', {}, el('a', { href: '#/session/' + encodeURIComponent(c.sessionId),
          className: 'session', text: c.sessionId })),
        el('dt', {}, 'Turn'), el('dd', { text: c.turnId }),
        c.completedAt ? el('dt', {}, 'Ended') : null, c.completedAt ? el('dd', { text: when(c.completedAt) }) : null,
        c.error ? el('dt', {}, 'Error') : null, c.error ? el('dd', { className: 'call-error', text: c.error }) : null),
      (() => { const p = json(c.arguments); p.classList.add('arguments'); return p; })(),
      canDecide() ? reconcileForm(c.sessionId, c, render) : null));
    fill(view, el('h2', {}, 'Needs reconciliation'),
      el('p', { className: 'muted' }, 'Writes that may or may not have reached the provider (outcome unknown), among the '
        + data.sessionsScanned + ' most recently active sessions. Check each at the provider and record what you found.'),
      cards.length ? cards : el('p', { className: 'empty' }, 'Nothing needs reconciling.'));
  };
  await render();
}

function showReconcileCount(n) {
  const c = document.getElementById('reconcile-count');
  if (!c) return;
  c.textContent = String(n);
  c.classList.toggle('zero', n === 0);
}

// a session retention archived whole: its meta stays, its turns are in the archive until it is used again
function isArchived(s) {
  return s.archivedAt != null && s.archivedAt >= (s.updatedAt || 0);
}

function retentionText(settings, agent) {
  const p = settings && settings.agents && settings.agents[agent];
  if (!settings || !p) {
    return '';
  }
  const rules = [];
  if (p.keepLast !== null && p.keepLast !== undefined) rules.push('last ' + p.keepLast + ' turns');
  if (p.keepForMillis !== null && p.keepForMillis !== undefined) rules.push('turns for ' + duration(p.keepForMillis));
  if (p.idleAfterMillis !== null && p.idleAfterMillis !== undefined) rules.push('archive after ' + duration(p.idleAfterMillis) + ' idle');
  return 'Retention' + (settings.enabled ? '' : ' (sweeper off)') + ': '
    + (rules.length ? 'keeps ' + rules.join(', ') : 'keeps everything') + (p.own ? ' (own policy)' : ' (default)');
}

const reconcileDrafts = new Map();

function reconcileForm(sessionId, call, after) {
  const outcome = el('select', { className: 'outcome', 'aria-label': 'Outcome' },
    el('option', { value: 'succeeded' }, 'It happened (succeeded)'),
    el('option', { value: 'failed' }, 'It did not happen (failed)'));
  const note = el('input', { type: 'text', className: 'note-input', placeholder: 'What you checked at the provider',
    'aria-label': 'Note', maxlength: 2000 });
  const message = el('p', { className: 'error', hidden: true });
  const button = el('button', { type: 'button', className: 'primary reconcile', 'data-acts': 'true', disabled: !mayAct(),
    onclick: async () => {
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
    a ? el('dd', { className: 'approval-info', text: [a.status, (a.rule || a.askedBecause) ? '· ' + (a.rule || a.askedBecause) : '',
      a.approver ? '· by ' + a.approver : '', a.reason ? '· "' + a.reason + '"' : '', a.decidedAt ? '· ' + when(a.decidedAt) : '']
      .filter(Boolean).join(' ') }) : null,
    call.reconciled ? el('dt', {}, 'Reconciled') : null,
    call.reconciled ? el('dd', { className: 'reconciled-info', text: 'was ' + call.reconciled.from + ', set to '
      + call.reconciled.outcome + ' by ' + call.reconciled.by + ' ' + when(call.reconciled.at) + ': ' + call.reconciled.note }) : null);
  const args = json(call.arguments); args.classList.add('arguments');
  const ed = call.edited;
  const edited = ed ? [el('div', { className: 'muted' }, 'Edited before approval'),
    el('p', { className: 'edited-info', text: 'edited by ' + ed.by + (ed.reason ? ': "' + ed.reason + '"' : '')
      + ' · ran with these arguments' }),
    (() => { const p = json(ed.arguments); p.classList.add('edited-arguments'); return p; })()] : null;
  return Visible.markUnusual(el('div', { className: 'call', 'data-call-id': call.callId, 'data-tool': call.tool },
    el('div', { className: 'call-head' }, el('span', { className: 'muted', text: '#' + call.index }),
      el('span', { className: 'tool', text: call.tool }), statusBadge(call),
      timing(call) ? el('span', { className: 'muted timing', text: timing(call) }) : null),
    details, el('div', { className: 'muted' }, ed ? 'Arguments the model sent' : 'Arguments'), args, edited,
    call.result !== undefined ? el('div', { className: 'muted' }, 'Result') : null,
    call.result !== undefined ? json(call.result) : null,
    call.status === 'outcome_unknown' && canDecide() ? reconcileForm(sessionId, call, reload) : null));
}

const messageDrafts = new Map();

// the server takes a message from a person who may decide, and only into a session of their own caller id
function maySend(t) {
  return canDecide() && (!t.caller || t.caller === state.me.callerId);
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
  if (!maySend(t)) {
    return el('section', { className: 'card conversation' }, el('h3', {}, 'Conversation'), ...lines,
      el('p', { className: 'note send-note', text: canDecide()
        ? 'Only the session\'s caller (' + t.caller + ') can send messages here; you can read the conversation.'
        : 'You are a ' + state.me.role + ': you can read the conversation but not send messages.' }));
  }
  const input = el('input', { type: 'text', className: 'message-input', placeholder: 'Message to the agent', 'aria-label': 'Message' });
  // a live re-render must not wipe a half-typed message
  if (messageDrafts.has(sessionId)) input.value = messageDrafts.get(sessionId);
  input.addEventListener('input', () => messageDrafts.set(sessionId, input.value));
  const error = el('span', { className: 'error' });
  const send = el('button', { type: 'submit', 'data-acts': 'true', disabled: !mayAct(), text: 'Send' });
  const form = el('form', { className: 'message-form', onsubmit: async ev => {
    ev.preventDefault();
    if (!input.value.trim()) return;
    send.disabled = true;
    try {
      await api('POST', '/api/sessions/' + encodeURIComponent(sessionId) + '/messages', { agent: t.agent, text: input.value });
      input.value = '';
      messageDrafts.delete(sessionId);
      error.textContent = '';
      reload();
    } catch (e) {
      error.textContent = e.message;
    } finally {
      send.disabled = !mayAct();
    }
  } }, input, send, error);
  return el('section', { className: 'card conversation' }, el('h3', {}, 'Conversation'), ...lines, form);
}

async function showSession(sessionId) {
  setActive('sessions');
  const view = document.getElementById('view');
  // the timeline comes a page of turns at a time, latest first; "Show earlier turns" adds a page
  let pages = 1;
  const page = state.page;
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
      if (page !== state.page) return;
      view.replaceChildren(el('h2', {}, 'Session'), el('p', { className: 'error', text: e.message }));
      return;
    }
    if (page !== state.page) return;
    const more = earlier ? el('p', {}, el('button', { type: 'button', className: 'earlier-turns',
      onclick: () => { pages++; render(); } }, 'Show earlier turns'),
      el('span', { className: 'muted', text: ' ' + all.length + ' of ' + t.turnsTotal + ' turns shown' })) : null;
    const turns = all.slice().reverse().map(turn => el('section', { className: 'card turn', 'data-turn-id': turn.turnId },
      el('h3', {}, 'Turn ', el('span', { text: turn.turnId }), ' ',
        el('span', { className: 'badge ' + (turn.status === 'completed' ? 'b-succeeded' : 'b-running'), text: turn.status })),
      el('p', { className: 'muted', text: 'submitted ' + when(turn.submittedAt)
        + (turn.durationMs !== undefined ? ' · took ' + duration(turn.durationMs) : '') }),
      turn.calls.map(c => callView(sessionId, c, render))));
    const typing = document.activeElement && document.activeElement.classList.contains('message-input');
    fill(view, el('h2', {}, 'Session ', el('span', { id: 'session-id', text: sessionId })),
      el('p', { className: 'muted', text: 'agent ' + (t.agent || '?') + (t.caller ? ' · caller ' + t.caller : '')
        + (t.creator ? ' · created by ' + t.creator : '') + ' · started ' + when(t.createdAt)
        + (isArchived(t) ? ' · archived ' + when(t.archivedAt) + ': earlier turns are in the archive' : '') }),
      conversationView(sessionId, t, render),
      ...(turns.length ? turns : [el('p', { className: 'empty' }, 'No turns yet.')]), more);
    const input = view.querySelector('.message-input');
    if (typing && input) { input.focus(); input.setSelectionRange(input.value.length, input.value.length); }
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
  const retention = await api('GET', '/api/retention').catch(() => null);
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
      el('p', { className: 'muted retention', text: retentionText(retention, a.name) }),
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
  const [path, query] = hash.slice(2).split('?');
  const parts = path.split('/');
  const show = parts[0] === 'sessions' ? showSessions(parseInt(parts[1] || '0', 10) || 0, new URLSearchParams(query || ''))
    : parts[0] === 'reconcile' ? showReconcile()
    : parts[0] === 'session' ? showSession(decodeURIComponent(parts.slice(1).join('/')))
    : parts[0] === 'tools' ? showTools()
    : parts[0] === 'connections' ? (setActive('connections'), showConnections())
    : showInbox(parts[0] === 'inbox' && parts.length === 3 ? [decodeURIComponent(parts[1]), decodeURIComponent(parts[2])] : null);
  Promise.resolve(show).catch(e => document.getElementById('view')
    .replaceChildren(el('p', { className: 'error', text: e.message })));
}

document.addEventListener('DOMContentLoaded', async () => {
  const [me, vocab] = await Promise.all([api('GET', '/api/me'), api('GET', '/assets/vocabulary.json')]);
  state.me = me;
  state.vocab = vocab;
  Visible.init(vocab.visibleText);
  state.csrf = me.csrfToken;
  document.getElementById('me').textContent = me.name + ' (' + me.role + ')';
  document.getElementById('no-tenants').hidden = !me.noTenants;
  document.getElementById('logout').addEventListener('click', async () => {
    try { await api('POST', '/logout'); } finally { location.href = '/login.html'; }
  });
  window.addEventListener('hashchange', route);
  route();
  // the approvals count in the header and the inbox are live on every page, from one event stream
  openInboxStream();
});
