import { DEV_PATHS } from '@framework/core';

/**
 * The Inbox tab (browser script, see `SHELL_SCRIPT`): what the app sent through `@framework/notify`'s local inbox
 * (`GET /_dev/inbox`, re-read every 2 s while shown), newest first. An email shows its headers and its HTML in an
 * iframe sandboxed without scripts or same-origin access, whose document allows no request at all (a remote image or
 * a tracking pixel is not fetched), with the text part below; SMS, WhatsApp and push show as messages. Clear empties
 * the inbox (`DELETE /_dev/inbox`).
 */
export const INBOX_TAB_SCRIPT = `
(function () {
  'use strict';
  var fw = window.fwConsole;
  var el = fw.el;
  // Put in the email's document: nothing it names is fetched, nothing in it runs (the sandbox forbids scripts too).
  var EMAIL_POLICY = '<meta http-equiv="Content-Security-Policy" content="default-src \\'none\\'; style-src \\'unsafe-inline\\'; img-src data:">';

  function when(message) { return message.receivedAt.replace('T', ' ').slice(0, 19) + ' UTC'; }

  function emailView(message) {
    var email = message.email;
    var frame = el('iframe', { sandbox: '', title: 'Email: ' + email.subject, class: 'inbox-email', referrerpolicy: 'no-referrer' });
    frame.srcdoc = EMAIL_POLICY + (email.html || '');
    var parts = [
      el('div', { class: 'mono', text: 'From: ' + email.from }),
      el('div', { class: 'mono', text: 'To: ' + message.to }),
      el('div', { class: 'inbox-subject', text: email.subject }),
    ];
    if (email.html) parts.push(frame);
    if (email.text) parts.push(el('details', {}, [el('summary', { text: 'Text part' }), el('pre', { class: 'inbox-text', text: email.text })]));
    return parts;
  }

  function messageView(message) {
    var channel = message.channel;
    var content = message[channel] || {};
    if (channel === 'push') return [el('div', { class: 'mono', text: 'To device: ' + message.to }), el('div', { class: 'inbox-subject', text: content.title }), el('p', { class: 'inbox-bubble', text: content.body })];
    if (channel === 'whatsapp' && !content.body && content.template) {
      return [el('div', { class: 'mono', text: 'To: ' + message.to }), el('p', { class: 'inbox-bubble', text: 'Template ' + content.template.name + ' (' + content.template.language + '): ' + content.template.parameters.join(', ') })];
    }
    var kind = message.whatsappKind ? ' (' + message.whatsappKind + ' message)' : '';
    return [el('div', { class: 'mono', text: 'To: ' + message.to + kind }), el('p', { class: 'inbox-bubble', text: content.body })];
  }

  fw.addTab('inbox', 'Inbox', function (panel) {
    var list = el('div', { id: 'inbox-messages', 'aria-live': 'polite' });
    var status = el('p', { class: 'note', text: 'Loading the inbox…' });
    var shown = '';
    function render(messages) {
      var key = messages.map(function (m) { return m.id; }).join(',');
      if (key === shown) return;
      shown = key;
      list.textContent = '';
      status.textContent = messages.length ? messages.length + ' message(s), newest first' : 'No messages yet: what the app sends with notify.send shows up here once the dispatcher delivered it.';
      messages.forEach(function (message) {
        var body = message.channel === 'email' && message.email ? emailView(message) : messageView(message);
        list.appendChild(el('article', { class: 'inbox-message', 'data-channel': message.channel, 'data-message': message.id }, [
          el('header', {}, [el('strong', { text: message.channel.toUpperCase() }), ' ', el('span', { class: 'note', text: when(message) + (message.category ? ' · ' + message.category : '') })]),
        ].concat(body)));
      });
    }
    function refresh() {
      return fw.request('GET', '${DEV_PATHS.inbox}').then(function (inbox) { render(inbox.messages); }).catch(function (error) {
        status.textContent = 'Could not read the inbox: ' + error.message;
      });
    }
    var clear = el('button', { type: 'button', text: 'Clear' });
    clear.addEventListener('click', function () { fw.request('DELETE', '${DEV_PATHS.inbox}').then(refresh); });
    var reload = el('button', { type: 'button', text: 'Refresh' });
    reload.addEventListener('click', refresh);
    panel.appendChild(el('div', {}, [reload, ' ', clear]));
    panel.appendChild(status);
    panel.appendChild(list);
    refresh();
    setInterval(function () { if (list.offsetParent !== null) refresh(); }, 2000);
  });
})();
`;
