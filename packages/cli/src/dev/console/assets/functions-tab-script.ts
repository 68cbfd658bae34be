import { DEV_PATHS } from '@framework/core';

/**
 * The Functions tab (browser script, see `SHELL_SCRIPT`): each standalone function with a payload box, "Invoke"
 * (synchronous: `POST /_dev/invoke/<id>`, the result or Lambda's error shape) and "Invoke async"
 * (`X-Amz-Invocation-Type: Event`, 202 at once), and the last results of this page, newest first.
 */
export const FUNCTIONS_TAB_SCRIPT = `
(function () {
  'use strict';
  var fw = window.fwConsole;
  var el = fw.el;
  var KEEP = 10;

  function functionCard(fn) {
    var payload = el('textarea', { 'aria-label': 'Payload (JSON) for ' + fn.id, 'data-function-payload': fn.id, spellcheck: 'false' });
    payload.value = '{}';
    var results = el('ol', { 'data-function-results': fn.id, reversed: true });
    function invoke(async) {
      var started = performance.now();
      var headers = { 'content-type': 'application/json' };
      if (async) headers['x-amz-invocation-type'] = 'Event';
      fetch('${DEV_PATHS.invoke}/' + encodeURIComponent(fn.id), { method: 'POST', headers: headers, body: payload.value || '{}' }).then(function (response) {
        return response.text().then(function (text) {
          var failed = response.headers.get('x-amz-function-error');
          var label = async ? (response.status === 202 ? 'accepted (async): its run shows in Requests' : 'HTTP ' + response.status)
            : (failed ? 'failed (' + failed + ')' : response.ok ? 'ok' : 'HTTP ' + response.status);
          var item = el('li', { class: failed || !response.ok ? 'error' : null }, [
            el('span', { text: new Date().toISOString().slice(11, 23) + ' · ' + label + ' · ' + (performance.now() - started).toFixed(0) + ' ms · request ' + (response.headers.get('x-request-id') || '') }),
            text ? el('pre', { text: text }) : null,
          ]);
          results.insertBefore(item, results.firstChild);
          while (results.childNodes.length > KEEP) results.removeChild(results.lastChild);
        });
      }).catch(function (error) { results.insertBefore(el('li', { class: 'error', text: error.message }), results.firstChild); });
    }
    return el('section', { 'data-function': fn.id }, [
      el('h2', { text: fn.id + ' (' + fn.functionName + ')' }),
      el('p', { class: 'note', text: fn.file + ' · timeout ' + fn.timeout + ' s · ' + fn.memorySize + ' MB' + (fn.description ? ' · ' + fn.description : '') }),
      el('label', {}, ['Payload (JSON)', payload]),
      el('button', { type: 'button', text: 'Invoke', 'aria-label': 'Invoke ' + fn.id, onclick: function () { invoke(false); } }),
      ' ',
      el('button', { type: 'button', text: 'Invoke async', 'aria-label': 'Invoke ' + fn.id + ' asynchronously', onclick: function () { invoke(true); } }),
      el('h3', { text: 'Last results' }),
      results,
    ]);
  }

  fw.addTab('functions', 'Functions', function (panel) {
    fw.request('GET', '${DEV_PATHS.functions}').then(function (units) {
      if (!units.functions.length) { panel.appendChild(el('p', { text: 'This app has no standalone functions (src/functions/).' })); return; }
      units.functions.forEach(function (fn) { panel.appendChild(functionCard(fn)); });
    }).catch(function (error) { panel.appendChild(el('p', { class: 'error', text: 'Could not load the functions: ' + error.message })); });
  });
})();
`;
