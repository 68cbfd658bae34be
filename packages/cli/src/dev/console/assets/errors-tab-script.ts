import { CONSOLE_PATHS } from '../console-paths.js';

/**
 * The Errors tab and banner (browser script, see `SHELL_SCRIPT`): what is broken right now (a handler that does not
 * compile or load, a config that does not reload), read from `GET /_dev/console/errors` every second and a half; the
 * banner above the tabs shows on every tab while anything is, and goes when the save that fixes it is loaded.
 */
export const ERRORS_TAB_SCRIPT = `
(function () {
  'use strict';
  var fw = window.fwConsole;
  var el = fw.el;
  var banner = el('div', { id: 'error-banner', role: 'alert', class: 'banner', hidden: true });
  var list = el('div', { id: 'errors-list' });
  var last = '';

  function render(problems) {
    var text = JSON.stringify(problems);
    if (text === last) return;
    last = text;
    banner.hidden = problems.length === 0;
    banner.textContent = problems.length ? problems.length + ' problem' + (problems.length > 1 ? 's' : '') + ': ' + problems.map(function (p) { return p.file + ' (' + p.kind + ')'; }).join(', ') + ' · see Errors' : '';
    list.textContent = '';
    if (!problems.length) { list.appendChild(el('p', { id: 'errors-none', class: 'note', text: 'Nothing is broken: every handler built and loaded, the config loaded.' })); return; }
    problems.forEach(function (p) {
      list.appendChild(el('section', { 'data-problem': p.file }, [el('h2', { text: p.file + ' (' + p.kind + ', ' + p.time.slice(11, 19) + ' UTC)' }), el('pre', { text: p.message })]));
    });
  }
  function poll() {
    fw.request('GET', '${CONSOLE_PATHS.errors}').then(render).catch(function () { /* fw dev stopped: the Requests tab says so */ });
  }
  // The script runs at the end of the page's body: the tab list is there already.
  var tabs = document.getElementById('tabs');
  tabs.parentNode.insertBefore(banner, tabs);
  poll();
  setInterval(poll, 1500);

  fw.addTab('errors', 'Errors', function (panel) {
    panel.appendChild(el('p', { class: 'note', text: 'Handler files that do not compile or load and a config that does not reload, also printed in the fw dev terminal; fixed by saving the file.' }));
    panel.appendChild(list);
  });
})();
`;
