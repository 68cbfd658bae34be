/**
 * The console's shell (browser script, plain ES2017, no template literals so it can live in a TypeScript string):
 * helpers every tab uses (`fwConsole.el`, `fwConsole.request`) and the tab list, keyboard accessible as the WAI-ARIA
 * tabs pattern (arrow keys, Home, End move between tabs; Tab enters the panel). A tab registers itself with
 * `fwConsole.addTab(id, label, render)`; `render(panel)` runs the first time the tab is shown.
 */
export const SHELL_SCRIPT = `
(function () {
  'use strict';
  var fw = { tabs: [] };
  window.fwConsole = fw;

  /** An element: attributes (on* are listeners), then children (strings become text, never HTML). */
  fw.el = function (tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) {
      var value = attributes[name];
      if (value === undefined || value === null || value === false) return;
      if (name.slice(0, 2) === 'on') node.addEventListener(name.slice(2), value);
      else if (name === 'text') node.textContent = value;
      else node.setAttribute(name, value === true ? '' : value);
    });
    (children || []).forEach(function (child) {
      if (child === undefined || child === null) return;
      node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    });
    return node;
  };

  /** JSON from a dev endpoint (same origin); a refusal becomes an Error carrying its message. */
  fw.request = function (method, url, body) {
    var init = { method: method, headers: {} };
    if (body !== undefined) { init.headers['content-type'] = 'application/json'; init.body = JSON.stringify(body); }
    return fetch(url, init).then(function (response) {
      return response.text().then(function (text) {
        var value = null;
        try { value = text ? JSON.parse(text) : null; } catch (e) { value = text; }
        if (!response.ok) throw new Error((value && value.message) || (value && value.error && value.error.message) || ('HTTP ' + response.status + ' ' + text));
        return value;
      });
    });
  };

  /** Listeners of the live stream's events (the Requests tab owns the stream and hands each event here). */
  fw.eventListeners = [];
  fw.onEvent = function (listener) { fw.eventListeners.push(listener); };

  fw.addTab = function (id, label, render) { fw.tabs.push({ id: id, label: label, render: render, rendered: false }); };

  fw.start = function () {
    var list = document.getElementById('tabs');
    var panels = document.getElementById('panels');
    var buttons = [];
    function select(index, focus) {
      fw.tabs.forEach(function (tab, i) {
        var selected = i === index;
        buttons[i].setAttribute('aria-selected', String(selected));
        buttons[i].tabIndex = selected ? 0 : -1;
        tab.panel.hidden = !selected;
        if (selected && !tab.rendered) { tab.rendered = true; tab.render(tab.panel); }
      });
      if (focus) buttons[index].focus();
      history.replaceState(null, '', '#' + fw.tabs[index].id);
    }
    fw.tabs.forEach(function (tab, i) {
      var button = fw.el('button', { role: 'tab', id: 'tab-' + tab.id, 'aria-controls': 'panel-' + tab.id, type: 'button', text: tab.label, onclick: function () { select(i, false); } });
      button.addEventListener('keydown', function (event) {
        var next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: fw.tabs.length - 1 }[event.key];
        if (next === undefined) return;
        event.preventDefault();
        select((next + fw.tabs.length) % fw.tabs.length, true);
      });
      buttons.push(button);
      list.appendChild(button);
      tab.panel = fw.el('section', { role: 'tabpanel', id: 'panel-' + tab.id, 'aria-labelledby': 'tab-' + tab.id, tabindex: '0', hidden: true });
      panels.appendChild(tab.panel);
    });
    var wanted = location.hash.slice(1);
    var first = fw.tabs.map(function (tab) { return tab.id; }).indexOf(wanted);
    select(first === -1 ? 0 : first, false);
  };
})();
`;
