import { CONSOLE_PATHS } from '../console-paths.js';

/**
 * The Requests tab (browser script, see `SHELL_SCRIPT`): the live stream of `GET /_dev/events` (server-sent events),
 * newest first, one row per request, queue batch, cron run or invocation; a row opens its details. The stream opens
 * when the page loads, so nothing is missed while another tab is shown.
 */
export const REQUESTS_TAB_SCRIPT = `
(function () {
  'use strict';
  var fw = window.fwConsole;
  var el = fw.el;
  var LIMIT = 500;
  var events = [];
  var body = el('tbody', {});
  var details = el('div', { id: 'event-details', 'aria-live': 'polite' });
  var state = el('p', { id: 'events-state', class: 'note', text: 'Connecting…' });

  function what(event) {
    if (event.kind === 'request') return event.method + ' ' + event.path;
    if (event.kind === 'queue') return 'queue ' + event.id + ' batch of ' + (event.records || 0);
    if (event.kind === 'cron') return 'cron ' + event.id + ' run';
    return 'function ' + event.id;
  }
  function outcome(event) {
    if (event.kind === 'request') return String(event.status);
    return event.ok ? 'ok' : 'failed';
  }
  function failed(event) { return event.kind === 'request' ? event.status >= 400 : !event.ok; }

  function pretty(text) {
    try { return JSON.stringify(JSON.parse(text), null, 2); } catch (e) { return text; }
  }

  function show(event) {
    details.textContent = '';
    details.appendChild(el('h2', { text: what(event) }));
    details.appendChild(el('pre', { id: 'event-json', text: JSON.stringify(event, null, 2) }));
    if (!event.requestId) return;
    var more = el('div', { id: 'event-record' }, [el('p', { class: 'note', text: 'Loading its event, answer and log lines…' })]);
    details.appendChild(more);
    fw.request('GET', '${CONSOLE_PATHS.requests}/' + encodeURIComponent(event.requestId)).then(function (record) {
      more.textContent = '';
      more.appendChild(el('h3', { text: 'Log lines (' + record.logs.length + (record.droppedLines ? ', ' + record.droppedLines + ' more left out' : '') + ')' }));
      if (!record.logs.length) more.appendChild(el('p', { class: 'note', text: 'The handler printed nothing for this request.' }));
      else more.appendChild(el('pre', { id: 'event-logs' }, record.logs.map(function (line) { return el('span', { class: line.stream === 'stderr' ? 'error' : null, text: line.text + '\\n' }); })));
      if (record.response) {
        more.appendChild(el('h3', { text: 'Answer' + (record.response.status ? ' ' + record.response.status : '') }));
        if (record.response.headers) more.appendChild(el('pre', { id: 'event-response-headers', text: Object.keys(record.response.headers).map(function (h) { return h + ': ' + record.response.headers[h]; }).join('\\n') }));
        more.appendChild(el('pre', { id: 'event-response', text: pretty(record.response.body) }));
      }
      if (record.event) {
        more.appendChild(el('h3', { text: 'Event the function got' }));
        more.appendChild(el('pre', { id: 'event-payload', text: pretty(record.event) }));
      }
    }).catch(function (error) { more.textContent = ''; more.appendChild(el('p', { class: 'note', text: error.message })); });
  }

  function add(event) {
    events.push(event);
    var row = el('tr', { tabindex: '0', 'data-request-id': event.requestId || '' }, [
      el('td', { class: 'mono', text: event.time.slice(11, 23) }),
      el('td', { text: event.kind }),
      el('td', { class: 'mono', text: what(event) }),
      el('td', { class: failed(event) ? 'status-bad' : 'status-ok', text: outcome(event) }),
      el('td', { text: event.durationMs.toFixed(1) + ' ms' }),
      el('td', { class: 'mono', text: event.requestId || event.functionName || '' }),
    ]);
    row.addEventListener('click', function () { show(event); });
    row.addEventListener('keydown', function (key) { if (key.key === 'Enter' || key.key === ' ') { key.preventDefault(); show(event); } });
    body.insertBefore(row, body.firstChild);
    while (body.childNodes.length > LIMIT) body.removeChild(body.lastChild);
  }

  var stream = new EventSource('${CONSOLE_PATHS.events}');
  stream.onopen = function () { state.textContent = 'Live: new requests appear at the top; Enter or a click opens one.'; };
  stream.onerror = function () { state.textContent = 'Disconnected (fw dev stopped?); reconnecting…'; };
  stream.onmessage = function (message) {
    var event = JSON.parse(message.data);
    add(event);
    fw.eventListeners.forEach(function (listener) { listener(event); });
  };

  fw.addTab('requests', 'Requests', function (panel) {
    panel.appendChild(state);
    panel.appendChild(el('table', { id: 'events' }, [
      el('thead', {}, [el('tr', {}, ['Time (UTC)', 'Kind', 'What', 'Outcome', 'Duration', 'Request id'].map(function (h) { return el('th', { scope: 'col', text: h }); }))]),
      body,
    ]));
    panel.appendChild(details);
  });
})();
`;
