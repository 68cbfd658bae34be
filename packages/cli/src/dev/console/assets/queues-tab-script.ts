import { DEV_PATHS } from '@framework/core';

/**
 * The Queues tab (browser script, see `SHELL_SCRIPT`): each queue's depth, in-flight count and dead letters (the
 * queue engine's `GET /_dev/queues/<id>` and `/dead-letters`, refreshed every second while the tab is shown and after each batch of the live stream); send a
 * message, redrive the dead letters to the queue, purge it (after a confirmation).
 */
export const QUEUES_TAB_SCRIPT = `
(function () {
  'use strict';
  var fw = window.fwConsole;
  var el = fw.el;
  var refreshers = {};
  fw.onEvent(function (event) { if (event.kind === 'queue' && refreshers[event.id]) refreshers[event.id](); });

  function queueCard(queue) {
    var base = '${DEV_PATHS.queues}/' + encodeURIComponent(queue.id);
    var counts = el('p', { 'data-queue-counts': queue.id, text: 'Loading…' });
    var dead = el('div', { 'data-queue-dead': queue.id });
    var outcome = el('p', { 'data-queue-outcome': queue.id, 'aria-live': 'polite' });
    var body = el('textarea', { 'aria-label': 'Message body for ' + queue.id, 'data-queue-body': queue.id, spellcheck: 'false' });
    function refresh() {
      return Promise.all([fw.request('GET', base), fw.request('GET', base + '/dead-letters')]).then(function (answers) {
        counts.textContent = 'Depth ' + answers[0].depth + ' · in flight ' + answers[0].inFlight + ' · dead letters ' + answers[0].deadLetters + (queue.deadLetterQueue ? '' : ' (no dead-letter queue: failing messages are redelivered)');
        dead.textContent = '';
        if (answers[1].messages.length) {
          dead.appendChild(el('table', {}, [
            el('thead', {}, [el('tr', {}, ['Message id', 'Body', 'Receives', 'Moved at'].map(function (h) { return el('th', { scope: 'col', text: h }); }))]),
            el('tbody', {}, answers[1].messages.map(function (m) {
              return el('tr', {}, [el('td', { class: 'mono', text: m.messageId }), el('td', { class: 'mono', text: m.body }), el('td', { text: String(m.receiveCount) }), el('td', { class: 'mono', text: m.movedAt })]);
            })),
          ]));
        }
      }).catch(function (error) { counts.textContent = 'Could not read the queue: ' + error.message; });
    }
    refreshers[queue.id] = refresh;
    function act(label, method, url, payload, describe) {
      return el('button', { type: 'button', text: label, 'aria-label': label + ' ' + queue.id, onclick: function () {
        if (label === 'Purge' && !window.confirm('Delete every message of ' + queue.id + ' that is not yet consumed? Dead letters stay.')) return;
        fw.request(method, url, payload ? payload() : undefined).then(function (answer) { outcome.textContent = describe(answer); return refresh(); })
          .catch(function (error) { outcome.textContent = label + ' failed: ' + error.message; });
      } });
    }
    refresh();
    var card = el('section', { 'data-queue': queue.id }, [
      el('h2', { text: queue.id + ' (' + queue.queueName + ')' }),
      counts,
      el('label', {}, ['Message body (a string; JSON is sent as it is written)', body]),
      act('Send', 'POST', base + '/messages', function () { return { body: body.value }; }, function (a) { return 'Sent ' + a.messageId; }),
      ' ',
      act('Redrive', 'POST', base + '/redrive', undefined, function (a) { return 'Redrove ' + a.redriven + ' dead letters to ' + queue.id; }),
      ' ',
      act('Purge', 'POST', base + '/purge', undefined, function (a) { return 'Purged ' + a.purged + ' messages'; }),
      outcome,
      dead,
    ]);
    // A message moves to the dead letters between batches (no event says so): re-read while the tab is shown.
    setInterval(function () { if (card.offsetParent !== null) refresh(); }, 1000);
    return card;
  }

  fw.addTab('queues', 'Queues', function (panel) {
    panel.appendChild(el('p', { class: 'note', text: 'Loading queues…' }));
    fw.request('GET', '${DEV_PATHS.functions}').then(function (units) {
      panel.textContent = '';
      if (!units.queues.length) { panel.appendChild(el('p', { text: 'This app has no queues.' })); return; }
      units.queues.forEach(function (queue) { panel.appendChild(queueCard(queue)); });
    }).catch(function (error) {
      panel.textContent = '';
      panel.appendChild(el('p', { class: 'error', text: 'Could not load the queues: ' + error.message }));
    });
  });
})();
`;
