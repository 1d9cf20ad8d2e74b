// docket dashboard: fills the page from the JSON API (docs/dashboard.md) and refreshes it
// every few seconds. Every node is built with textContent and attributes set one by one,
// never from HTML text, so nothing a store holds (an error, an id) can become markup.
// Every action is a POST of JSON carrying this session's CSRF token (X-CSRF-Token).
'use strict';

const REFRESH_MS = 3000;
let csrfToken = null;

// An element with `props` (className, textContent, dataset entries as data-*) and children.
function el(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'data') {
      for (const [name, text] of Object.entries(value)) node.dataset[name] = text;
    } else {
      node[key] = value;
    }
  }
  for (const child of children) node.append(child);
  return node;
}

function text(value) {
  return value === null || value === undefined ? '' : String(value);
}

function seconds(value) {
  if (value === null || value === undefined) return '-';
  let s = Math.round(value);
  if (s < 60) return `${s}s`;
  const parts = [];
  for (const [unit, size] of [['d', 86400], ['h', 3600], ['m', 60]]) {
    if (s >= size) { parts.push(`${Math.floor(s / size)}${unit}`); s %= size; }
  }
  if (s) parts.push(`${s}s`);
  return parts.join('');
}

async function call(path, body) {
  const options = { credentials: 'same-origin', headers: {} };
  if (body !== undefined) {
    options.method = 'POST';
    options.headers['Content-Type'] = 'application/json';
    options.headers['X-CSRF-Token'] = csrfToken || '';
    options.body = JSON.stringify(body);
  }
  try {
    const response = await fetch(path, options);
    let json = null;
    try { json = await response.json(); } catch { json = { error: `answer ${response.status}` }; }
    return { status: response.status, json };
  } catch (error) {
    return { status: 0, json: { error: `the dashboard cannot be reached: ${error.message}` } };
  }
}

async function openSession() {
  const { status, json } = await call('/api/session');
  csrfToken = status === 200 ? json.csrf_token : null;
}

function notice(message, bad) {
  const node = document.getElementById('notice');
  node.textContent = message;
  node.className = bad ? 'notice bad' : 'notice';
  node.hidden = false;
}

function table(headers, rows) {
  const head = el('tr', {}, headers.map(([label, cls]) => el('th', { className: cls || '', textContent: label })));
  return el('table', {}, [el('thead', {}, [head]), el('tbody', {}, rows)]);
}

function cell(value, className) {
  return el('td', { className: className || '', textContent: text(value) });
}

// Shows `answer` in section `id`: its rendering when 200, else the API's error (503: the
// store cannot be read; 501: the store does not offer it).
function show(id, answer, render) {
  const body = document.querySelector(`#${id} .body`);
  let content;
  if (answer.status === 200) {
    content = render(answer.json);
  } else if (answer.status === 501) {
    content = el('p', { className: 'unavailable', textContent: `Not offered by this store: ${text(answer.json.error)}` });
  } else {
    content = el('p', { className: 'problem', textContent: text(answer.json && answer.json.error) });
  }
  body.replaceChildren(content);
  return answer.status === 200;
}

function countsRow(name, c) {
  return el('tr', { data: { destination: name } }, [cell(name), ...['pending', 'due', 'in_backoff', 'scheduled', 'parked', 'done', 'skipped', 'cancelled']
    .map((key) => cell(c[key], `num ${key}`))]);
}

function renderOutbox(stats) {
  document.getElementById('store').textContent = stats.store;
  document.getElementById('outbox-summary').textContent = stats.oldest_due_age_seconds === null
    ? 'No message is due.'
    : `${stats.total.due} due; the oldest has waited ${seconds(stats.oldest_due_age_seconds)}.`;
  const rows = [countsRow('(all)', stats.total)];
  for (const [destination, counts] of Object.entries(stats.destinations)) rows.push(countsRow(destination, counts));
  return table([['destination'], ['pending', 'num'], ['due', 'num'], ['in backoff', 'num'], ['scheduled', 'num'],
    ['parked', 'num'], ['done', 'num'], ['skipped', 'num'], ['cancelled', 'num']], rows);
}

function setCount(id, count, more) {
  const node = document.getElementById(id);
  node.textContent = `${count}${more ? '+' : ''}`;
  node.className = count > 0 ? 'count bad' : 'count';
}

function button(label, action, onClick) {
  const node = el('button', { type: 'button', textContent: label, data: { action } });
  node.addEventListener('click', async () => { node.disabled = true; await onClick(); node.disabled = false; });
  return node;
}

async function act(path, body, done) {
  let answer = await call(path, body);
  if (answer.status === 403 && /CSRF/.test(text(answer.json.error))) {
    await openSession();  // the dashboard restarted: a new session, then once more
    answer = await call(path, body);
  }
  notice(answer.status === 200 ? done(answer.json) : text(answer.json.error), answer.status !== 200);
  await refresh();
}

function renderParked(list) {
  setCount('parked-count', list.count, list.more);
  if (list.messages.length === 0) return el('p', { className: 'empty', textContent: 'No message is parked.' });
  return table([['id'], ['destination'], ['tenant'], ['event type'], ['attempts', 'num'], ['last error'],
    ['last attempt due'], ['']], list.messages.map((m) => el('tr', { data: { id: m.id } }, [
    cell(m.id, 'id'), cell(m.destination), cell(m.tenant), cell(m.event_type), cell(m.attempts, 'num'),
    cell(m.last_error, 'error'), cell(m.last_attempt_due_at, 'time'),
    el('td', { className: 'actions' }, [
      button('Replay', 'replay', () => act('/api/outbox/replay', { id: m.id }, () => `Replayed ${m.id}: pending again, due now.`)),
      button('Skip', 'skip', () => act('/api/outbox/skip', { id: m.id }, () => `Skipped ${m.id}: it is never sent.`)),
    ]),
  ])));
}

function renderFailed(list) {
  setCount('failed-count', list.count, list.more);
  if (list.entries.length === 0) return el('p', { className: 'empty', textContent: 'No claim inbox entry has failed.' });
  return table([['message id'], ['handler'], ['tenant'], ['failures', 'num'], ['last error'], ['next due'], ['']],
    list.entries.map((e) => el('tr', { data: { messageId: e.message_id, handler: e.handler_type } }, [
      cell(e.message_id, 'id'), cell(e.handler_type), cell(e.tenant), cell(e.failures, 'num'),
      cell(e.last_error, 'error'), cell(e.next_attempt_at, 'time'),
      el('td', { className: 'actions' }, [button('Retry', 'retry', () => act('/api/inbox/retry',
        { tenant: e.tenant, message_id: e.message_id, handler_type: e.handler_type },
        () => `Retried ${e.message_id} for ${e.handler_type}: due now.`))]),
    ])));
}

function renderSagas(sagas) {
  const count = (s) => `${s.count}${s.more ? '+' : ''}`;
  document.getElementById('sagas-summary').textContent =
    `${count(sagas.by_status.active)} active, ${count(sagas.by_status.completed)} completed.`;
  if (sagas.active.length === 0) return el('p', { className: 'empty', textContent: 'No saga is active.' });
  return table([['saga type'], ['saga id'], ['tenant'], ['version', 'num'], ['started'], ['last saved']],
    sagas.active.map((s) => el('tr', {}, [cell(s.saga_type), cell(s.saga_id, 'id'), cell(s.tenant),
      cell(s.version, 'num'), cell(s.started_at, 'time'), cell(s.updated_at, 'time')])));
}

function renderProjections(list) {
  if (list.projections.length === 0) return el('p', { className: 'empty', textContent: 'No feed consumer has a checkpoint.' });
  return table([['consumer'], ['tenant'], ['checkpoint'], ['head', 'num'], ['lag', 'num'], ['lag time', 'num'], ['']],
    list.projections.map((p) => el('tr', { data: { consumer: p.consumer_id } }, [
      cell(p.consumer_id), cell(p.tenant === null ? '(whole feed)' : p.tenant), cell(p.checkpoint, 'id'),
      cell(p.head === null ? '-' : p.head, 'num'), cell(p.lag_positions === null ? '-' : p.lag_positions, 'num'),
      cell(p.problem ? '-' : seconds(p.lag_seconds), 'num'),
      cell(p.problem || (p.caught_up ? 'caught up' : ''), p.problem ? 'error' : ''),
    ])));
}

let refreshing = null;
async function refresh() {
  if (refreshing) return refreshing;
  refreshing = (async () => {
    const [stats, parked, failed, sagas, projections] = await Promise.all([
      call('/api/outbox/stats'), call('/api/outbox/parked'), call('/api/inbox/failed'),
      call('/api/sagas'), call('/api/projections')]);
    show('outbox', stats, renderOutbox);
    show('parked', parked, renderParked);
    show('failed', failed, renderFailed);
    show('sagas', sagas, renderSagas);
    show('projections', projections, renderProjections);
    const stamp = document.getElementById('refreshed');
    stamp.textContent = `refreshed ${new Date().toLocaleTimeString()}`;
    document.body.dataset.refreshes = String(Number(document.body.dataset.refreshes || 0) + 1);
  })();
  try { await refreshing; } finally { refreshing = null; }
}

document.addEventListener('DOMContentLoaded', async () => {
  await openSession();
  await refresh();
  setInterval(refresh, REFRESH_MS);
});
