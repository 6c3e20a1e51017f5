// Ratchet dashboard: the Connections page (tool providers' connections of the logged-in caller).
// Uses el() and api() of app.js; every value from the API goes on the page as text only.
'use strict';

/** A provider's URL as a link, only when it is http(s): a URL from a provider is untrusted. */
function safeLink(url, text) {
  try {
    const u = new URL(url);
    if (u.protocol === 'https:' || u.protocol === 'http:') {
      return el('a', { href: u.href, target: '_blank', rel: 'noopener noreferrer', className: 'auth-link', text });
    }
  } catch (e) { /* not a URL */ }
  return el('span', { className: 'error', text: 'the provider answered an unusable link' });
}

async function showConnections() {
  const view = document.getElementById('view');
  const providers = (await api('GET', '/api/providers')).providers;
  const message = el('p', { className: 'note', id: 'connections-message' });
  const render = async () => {
    let list;
    try {
      list = await api('GET', '/api/connections');
    } catch (e) {
      message.textContent = e.message;
      return;
    }
    const revocable = name => (providers.find(p => p.name === name) || { capabilities: {} }).capabilities.revokeConnection;
    const rows = list.connections.map(c => el('tr', { 'data-connection-id': c.id },
      el('td', { text: c.provider }), el('td', { text: c.toolkit || '' }), el('td', { text: c.id }),
      el('td', {}, el('span', { className: 'badge ' + (c.active ? 'b-health-healthy' : 'b-health-local'), text: c.status })),
      el('td', {}, revocable(c.provider) ? el('button', { type: 'button', className: 'revoke', onclick: async () => {
        try {
          await api('DELETE', '/api/providers/' + encodeURIComponent(c.provider) + '/connections/' + encodeURIComponent(c.id));
          message.textContent = 'Revoked ' + c.id + '.';
        } catch (e) { message.textContent = e.message; }
        render();
      } }, 'Revoke') : null)));
    const table = el('table', { id: 'connections' }, el('thead', {}, el('tr', {},
      ['Provider', 'Toolkit', 'Connection', 'Status', ''].map(h => el('th', {}, h)))), el('tbody', {}, rows));
    const errors = list.errors.map(e => el('p', { className: 'error', text: e.provider + ': ' + e.message }));
    document.getElementById('connections-list').replaceChildren(
      rows.length ? table : el('p', { className: 'empty' }, 'No connections yet.'), ...errors);
  };

  const providerCards = providers.map(p => el('li', {}, el('strong', { text: p.name + ' ' }),
    el('span', { className: 'badge ' + (p.health && p.health.healthy ? 'b-health-healthy' : 'b-health-unhealthy'),
      text: p.health && p.health.healthy ? 'healthy' : 'unhealthy' }),
    el('span', { className: 'detail', text: p.health && p.health.message ? ' ' + p.health.message : '' })));

  const choose = id => el('select', { id }, providers.map(p => el('option', { value: p.name, text: p.name })));
  const connectProvider = choose('connect-provider');
  const toolkit = el('input', { id: 'connect-toolkit', placeholder: 'toolkit, e.g. github' });
  const pending = el('div', { id: 'authorization' });
  // the values a toolkit asks for before it connects: asked for once per provider and toolkit
  const fieldsBox = el('div', { id: 'connect-fields' });
  let asked = null;
  const connect = el('form', { className: 'connect', onsubmit: async ev => {
    ev.preventDefault();
    try {
      const which = connectProvider.value + '/' + toolkit.value;
      if (asked !== which) {
        asked = which;
        const listed = await api('GET', '/api/providers/' + encodeURIComponent(connectProvider.value) + '/toolkits/'
          + encodeURIComponent(toolkit.value) + '/fields').catch(e => (e.status === 501 ? { fields: [] } : Promise.reject(e)));
        fill(fieldsBox, listed.fields.map(f => el('label', { className: 'filter' },
          el('span', { text: (f.displayName || f.name) + (f.required ? '' : ' (optional)') }),
          el('input', { type: f.secret ? 'password' : 'text', 'data-field': f.name, autocomplete: 'off' }))));
        if (listed.fields.length) {
          pending.replaceChildren(el('p', { className: 'note', text: toolkit.value + ' asks for these values; fill them in, then Connect.' }));
          return;
        }
      }
      const fields = {};
      fieldsBox.querySelectorAll('input[data-field]').forEach(i => { if (i.value) fields[i.dataset.field] = i.value; });
      const a = await api('POST', '/api/providers/' + encodeURIComponent(connectProvider.value) + '/authorizations',
        { toolkit: toolkit.value, fields });
      const status = el('span', { className: 'auth-state', text: 'waiting for you to authorize' });
      const check = el('button', { type: 'button', className: 'check', onclick: async () => {
        try {
          const s = await api('GET', '/api/providers/' + encodeURIComponent(a.provider) + '/authorizations/'
            + encodeURIComponent(a.authId));
          status.textContent = s.state === 'completed' ? 'connected (' + s.connectionId + ')' : s.state;
          if (s.state === 'completed') render();
        } catch (e) { status.textContent = e.message; }
      } }, 'Check');
      pending.replaceChildren(el('p', {}, safeLink(a.url, 'Authorize ' + a.toolkit + ' at ' + a.provider), ' ',
        status, ' ', check));
    } catch (e) { pending.replaceChildren(el('p', { className: 'error', text: e.message })); }
  } }, connectProvider, ' ', toolkit, ' ', el('button', { type: 'submit' }, 'Connect'), fieldsBox);

  const browseProvider = choose('browse-provider');
  const search = el('input', { id: 'browse-search', placeholder: 'search tools' });
  const found = el('div', { id: 'browse-results' });
  const browse = el('form', { className: 'browse', onsubmit: async ev => {
    ev.preventDefault();
    try {
      const page = await api('GET', '/api/providers/' + encodeURIComponent(browseProvider.value) + '/tools?search='
        + encodeURIComponent(search.value));
      const schema = el('pre', { className: 'schema' });
      found.replaceChildren(el('table', {}, el('thead', {}, el('tr', {},
        ['Tool', 'Toolkit', 'Effect class', 'Description'].map(h => el('th', {}, h)))),
        el('tbody', {}, page.items.map(t => el('tr', { 'data-tool': t.slug },
          el('td', {}, el('button', { type: 'button', className: 'show-schema', onclick: async () => {
            try {
              const s = await api('GET', '/api/providers/' + encodeURIComponent(browseProvider.value) + '/tools/'
                + encodeURIComponent(t.slug) + '/schema');
              schema.textContent = t.slug + ' ' + JSON.stringify(s.inputSchema, null, 2);
            } catch (e) { schema.textContent = e.message; }
          } }, t.slug)),
          el('td', { text: t.toolkit || '' }), el('td', { text: t.effectClass || '' }),
          el('td', { text: t.description || '' }))))), schema);
    } catch (e) { found.replaceChildren(el('p', { className: 'error', text: e.message })); }
  } }, browseProvider, ' ', search, ' ', el('button', { type: 'submit' }, 'Search'));

  fill(view, el('h2', {}, 'Connections'),
    providers.length ? el('section', { className: 'card' }, el('h3', {}, 'Tool providers'), el('ul', { className: 'sources' }, providerCards))
      : el('p', { className: 'empty' }, 'No tool providers configured.'),
    el('section', { className: 'card' }, el('h3', {}, 'Your connections'), el('div', { id: 'connections-list' }), message),
    providers.length ? el('section', { className: 'card' }, el('h3', {}, 'Connect'), connect, pending) : null,
    providers.length ? el('section', { className: 'card' }, el('h3', {}, 'Browse tools'), browse, found) : null);
  await render();
}
