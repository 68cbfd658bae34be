import { DEV_PATHS } from '@framework/core';
import { CONSOLE_PATHS } from '../console-paths.js';

/**
 * The Routes tab (browser script, see `SHELL_SCRIPT`): every route with its method, path, scopes and file (from
 * `GET /_dev/functions`), and "Try it": a request form whose token is minted by `POST /_dev/token` for a role or a set
 * of scopes, the answer with its status, headers and time, and the same request as a curl command.
 */
export const ROUTES_TAB_SCRIPT = `
(function () {
  'use strict';
  var fw = window.fwConsole;
  var el = fw.el;
  var READS = { GET: true, HEAD: true, OPTIONS: true };

  function shellQuote(text) { return "'" + String(text).replace(/'/g, "'\\\\''") + "'"; }

  function curlOf(method, url, headers, body) {
    var parts = ['curl', '-i', '-X', method, shellQuote(url)];
    Object.keys(headers).forEach(function (name) { parts.push('-H', shellQuote(name + ': ' + headers[name])); });
    if (body) parts.push('--data-raw', shellQuote(body));
    return parts.join(' ');
  }

  /** The token the picker asks for: none, a role's (as a user), or a set of declared scopes. */
  function mintToken(choice, scopes, subject) {
    if (choice === 'none') return Promise.resolve(undefined);
    var request = choice === 'scopes' ? { scopes: scopes } : { roles: [choice.slice('role:'.length)], sub: subject || 'console-user' };
    return fw.request('POST', '${DEV_PATHS.token}', request).then(function (answer) { return answer.access_token; });
  }

  function tryForm(route, app, holder) {
    holder.textContent = '';
    var path = el('input', { type: 'text', id: 'try-path', 'aria-label': 'Path (replace {parameters})', value: route.path });
    var query = el('input', { type: 'text', id: 'try-query', 'aria-label': 'Query string', placeholder: 'a=1&b=2' });
    var body = el('textarea', { id: 'try-body', 'aria-label': 'JSON body', spellcheck: 'false' });
    body.value = READS[route.method] ? '' : '{\\n}';
    var choice = el('select', { id: 'try-auth', 'aria-label': 'Token' }, [el('option', { value: 'none', text: 'No token' })]);
    Object.keys(app.roles).forEach(function (role) { choice.appendChild(el('option', { value: 'role:' + role, text: 'Role ' + role + ' (' + app.roles[role].join(', ') + ')' })); });
    if (Object.keys(app.scopes).length) choice.appendChild(el('option', { value: 'scopes', text: 'Scopes…' }));
    var preferred = (route.scopes || []).length ? Object.keys(app.roles).filter(function (role) { return route.scopes.every(function (s) { return app.roles[role].indexOf(s) !== -1; }); })[0] : undefined;
    if (preferred) choice.value = 'role:' + preferred;
    var subject = el('input', { type: 'text', id: 'try-sub', 'aria-label': 'User id (sub) of a role token', value: 'console-user' });
    var scopeBoxes = Object.keys(app.scopes).map(function (scope) {
      return el('label', {}, [el('input', { type: 'checkbox', value: scope, checked: (route.scopes || []).indexOf(scope) !== -1 }), ' ' + scope + ' ', el('span', { class: 'note', text: app.scopes[scope] })]);
    });
    var scopeSet = el('fieldset', { hidden: choice.value !== 'scopes' }, [el('legend', { text: 'Scopes of the token' })].concat(scopeBoxes));
    choice.addEventListener('change', function () { scopeSet.hidden = choice.value !== 'scopes'; });
    var result = el('div', { id: 'try-result', 'aria-live': 'polite' });
    var send = el('button', { type: 'submit', id: 'try-send', text: 'Send' });
    var form = el('form', {}, [
      el('h2', { text: 'Try ' + route.method + ' ' + route.path }),
      el('label', {}, ['Path ', path]),
      el('label', {}, ['Query ', query]),
      READS[route.method] ? null : el('label', {}, ['Body (JSON)', body]),
      el('label', {}, ['Token ', choice]),
      el('label', {}, ['User id (role tokens) ', subject]),
      scopeSet,
      send,
      result,
    ]);
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      send.disabled = true;
      result.textContent = 'Sending…';
      var scopes = scopeBoxes.map(function (label) { return label.firstChild; }).filter(function (box) { return box.checked; }).map(function (box) { return box.value; });
      var url = location.origin + path.value + (query.value ? '?' + query.value.replace(/^\\?/, '') : '');
      var text = READS[route.method] ? '' : body.value;
      mintToken(choice.value, scopes, subject.value).then(function (token) {
        var headers = {};
        if (token) headers.authorization = 'Bearer ' + token;
        if (text) headers['content-type'] = 'application/json';
        var started = performance.now();
        return fetch(url, { method: route.method, headers: headers, body: text || undefined }).then(function (response) {
          return response.text().then(function (answer) {
            showAnswer(result, response, answer, performance.now() - started, curlOf(route.method, url, headers, text));
          });
        });
      }).catch(function (error) {
        result.textContent = '';
        result.appendChild(el('p', { class: 'error', text: 'Not sent: ' + error.message }));
      }).then(function () { send.disabled = false; });
    });
    holder.appendChild(form);
    path.focus();
  }

  function showAnswer(result, response, answer, ms, curl) {
    result.textContent = '';
    var pretty = answer;
    try { pretty = JSON.stringify(JSON.parse(answer), null, 2); } catch (e) { /* not JSON: shown as it is */ }
    var headerRows = [];
    response.headers.forEach(function (value, name) { headerRows.push(el('tr', {}, [el('th', { text: name, scope: 'row' }), el('td', { class: 'mono', text: value })])); });
    var curlText = el('pre', { id: 'try-curl', text: curl });
    var copy = el('button', { type: 'button', id: 'try-copy', text: 'Copy as curl', onclick: function () {
      (navigator.clipboard ? navigator.clipboard.writeText(curl) : Promise.reject(new Error('no clipboard'))).then(
        function () { copy.textContent = 'Copied'; },
        function () { copy.textContent = 'Select the command above to copy it'; });
    } });
    result.appendChild(el('p', {}, [
      'Status ', el('span', { id: 'try-status', class: response.status < 400 ? 'status-ok' : 'status-bad', text: String(response.status) }),
      ' in ', el('span', { id: 'try-time', text: ms.toFixed(1) + ' ms' }),
    ]));
    result.appendChild(el('pre', { id: 'try-answer', text: pretty || '(empty body)' }));
    result.appendChild(el('details', {}, [el('summary', { text: 'Response headers' }), el('table', {}, headerRows)]));
    result.appendChild(curlText);
    result.appendChild(copy);
  }

  fw.addTab('routes', 'Routes', function (panel) {
    panel.appendChild(el('p', { class: 'note', text: 'Loading routes…' }));
    Promise.all([fw.request('GET', '${DEV_PATHS.functions}'), fw.request('GET', '${CONSOLE_PATHS.app}')]).then(function (loaded) {
      var units = loaded[0];
      var app = loaded[1];
      panel.textContent = '';
      var holder = el('div', { id: 'try' });
      var rows = units.routes.map(function (route) {
        var scopes = route.scopes === null ? el('span', { class: 'error', text: 'does not load (see the terminal)' }) : (route.scopes.length ? route.scopes.join(', ') : 'public');
        return el('tr', {}, [
          el('td', { class: 'method', text: route.method }),
          el('td', { class: 'mono', text: route.path }),
          el('td', {}, [scopes]),
          el('td', { class: 'mono', text: route.file }),
          el('td', {}, [el('button', { type: 'button', 'aria-label': 'Try ' + route.method + ' ' + route.path, text: 'Try it', onclick: function () { tryForm(route, app, holder); } })]),
        ]);
      });
      panel.appendChild(units.routes.length
        ? el('table', { id: 'routes' }, [el('thead', {}, [el('tr', {}, ['Method', 'Path', 'Scopes', 'File', ''].map(function (h) { return el('th', { scope: 'col', text: h }); }))]), el('tbody', {}, rows)])
        : el('p', { text: 'This app has no routes yet (add a file under the routes folder).' }));
      panel.appendChild(holder);
    }).catch(function (error) {
      panel.textContent = '';
      panel.appendChild(el('p', { class: 'error', text: 'Could not load the routes: ' + error.message }));
    });
  });
})();
`;
