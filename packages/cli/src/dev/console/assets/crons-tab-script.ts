import { DEV_PATHS } from '@framework/core';
import { CONSOLE_PATHS } from '../console-paths.js';

/**
 * The Crons tab (browser script, see `SHELL_SCRIPT`): every cron with its expression, its next fire time in UTC and in
 * the browser's time zone (from `GET /_dev/console/crons`), its last runs (the scheduler's, from the live stream, and
 * the ones started here) and "Run now" (`POST /_dev/invoke/cron/<id>`: once, without the scheduler's retries).
 */
export const CRONS_TAB_SCRIPT = `
(function () {
  'use strict';
  var fw = window.fwConsole;
  var el = fw.el;
  var lastRuns = {};
  var cells = {};

  function showRuns(id) {
    var cell = cells[id];
    if (!cell) return;
    cell.textContent = '';
    (lastRuns[id] || []).slice(-5).reverse().forEach(function (run) {
      cell.appendChild(el('div', { class: run.ok ? 'status-ok' : 'status-bad', text: run.time.slice(11, 19) + ' UTC ' + (run.ok ? 'ok' : 'failed') + (run.how ? ' (' + run.how + ')' : '') + (run.detail ? ': ' + run.detail : '') }));
    });
    if (!(lastRuns[id] || []).length) cell.appendChild(el('span', { class: 'note', text: 'none since this page opened' }));
  }
  function record(id, run) {
    (lastRuns[id] = lastRuns[id] || []).push(run);
    showRuns(id);
  }
  fw.onEvent(function (event) {
    if (event.kind === 'cron') record(event.id, { time: event.time, ok: event.ok, how: 'scheduler', detail: event.error });
  });

  function runNow(cron, button) {
    button.disabled = true;
    var time = new Date().toISOString();
    fetch('${DEV_PATHS.invokeCron}/' + encodeURIComponent(cron.id), { method: 'POST' }).then(function (response) {
      return response.text().then(function (text) {
        var failed = !response.ok || response.headers.get('x-amz-function-error');
        record(cron.id, { time: time, ok: !failed, how: 'run now', detail: text });
      });
    }).catch(function (error) {
      record(cron.id, { time: time, ok: false, how: 'run now', detail: error.message });
    }).then(function () { button.disabled = false; });
  }

  fw.addTab('crons', 'Crons', function (panel) {
    panel.appendChild(el('p', { class: 'note', text: 'Loading crons…' }));
    fw.request('GET', '${CONSOLE_PATHS.crons}').then(function (crons) {
      panel.textContent = '';
      if (!crons.length) { panel.appendChild(el('p', { text: 'This app has no crons.' })); return; }
      var rows = crons.map(function (cron) {
        cells[cron.id] = el('td', { 'data-cron-runs': cron.id });
        showRuns(cron.id);
        var next = cron.next ? new Date(cron.next) : null;
        var button = el('button', { type: 'button', 'aria-label': 'Run ' + cron.id + ' now', text: 'Run now' });
        button.addEventListener('click', function () { runNow(cron, button); });
        return el('tr', { 'data-cron': cron.id }, [
          el('td', { class: 'mono', text: cron.id }),
          el('td', { class: 'mono', text: cron.expression + (cron.enabled ? '' : ' (disabled)') }),
          el('td', { class: 'mono', text: next ? next.toISOString().replace('T', ' ').slice(0, 16) : (cron.every || 'never') }),
          el('td', { class: 'mono', text: next ? next.toLocaleString() : '' }),
          cells[cron.id],
          el('td', {}, [button]),
        ]);
      });
      panel.appendChild(el('table', { id: 'crons' }, [
        el('thead', {}, [el('tr', {}, ['Cron', 'Expression', 'Next (UTC)', 'Next (local)', 'Last runs', ''].map(function (h) { return el('th', { scope: 'col', text: h }); }))]),
        el('tbody', {}, rows),
      ]));
    }).catch(function (error) {
      panel.textContent = '';
      panel.appendChild(el('p', { class: 'error', text: 'Could not load the crons: ' + error.message }));
    });
  });
})();
`;
