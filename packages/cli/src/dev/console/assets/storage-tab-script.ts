import { CONSOLE_PATHS } from '../console-paths.js';

/**
 * The Storage tab (browser script, see `SHELL_SCRIPT`): each bucket's objects (by prefix), download (a presigned
 * URL), delete (after a confirmation) and upload through a presigned form, as a front end uploads
 * (`POST /_dev/console/storage/<bucket>`, then the form posted to the bucket's URL).
 */
export const STORAGE_TAB_SCRIPT = `
(function () {
  'use strict';
  var fw = window.fwConsole;
  var el = fw.el;

  function bucketCard(bucket) {
    var url = '${CONSOLE_PATHS.storage}/' + encodeURIComponent(bucket.id);
    var prefix = el('input', { type: 'text', 'aria-label': 'Key prefix in ' + bucket.id, 'data-storage-prefix': bucket.id });
    var list = el('div', { 'data-storage-objects': bucket.id });
    var outcome = el('p', { 'data-storage-outcome': bucket.id, 'aria-live': 'polite' });
    var file = el('input', { type: 'file', 'aria-label': 'File to upload to ' + bucket.id, 'data-storage-file': bucket.id });
    var key = el('input', { type: 'text', 'aria-label': 'Object key of the upload', 'data-storage-key': bucket.id, placeholder: 'uploads/<file name>' });
    function refresh() {
      return fw.request('POST', url, { action: 'list', prefix: prefix.value }).then(function (page) {
        list.textContent = '';
        if (!page.objects.length) { list.appendChild(el('p', { class: 'note', text: 'No objects' + (prefix.value ? ' under ' + prefix.value : '') + '.' })); return; }
        list.appendChild(el('table', {}, [
          el('thead', {}, [el('tr', {}, ['Key', 'Size', 'Last modified', ''].map(function (h) { return el('th', { scope: 'col', text: h }); }))]),
          el('tbody', {}, page.objects.map(function (o) {
            return el('tr', { 'data-object-key': o.key }, [
              el('td', { class: 'mono', text: o.key }),
              el('td', { text: o.size + ' B' }),
              el('td', { class: 'mono', text: o.lastModified }),
              el('td', {}, [
                el('button', { type: 'button', text: 'Download', 'aria-label': 'Download ' + o.key, onclick: function () {
                  fw.request('POST', url, { action: 'presign-download', key: o.key }).then(function (a) { window.open(a.url, '_blank'); }).catch(function (e) { outcome.textContent = e.message; });
                } }),
                ' ',
                el('button', { type: 'button', text: 'Delete', 'aria-label': 'Delete ' + o.key, onclick: function () {
                  if (!window.confirm('Delete ' + o.key + ' from ' + bucket.id + '?')) return;
                  fw.request('POST', url, { action: 'delete', key: o.key }).then(function () { outcome.textContent = 'Deleted ' + o.key; return refresh(); }).catch(function (e) { outcome.textContent = 'Delete failed: ' + e.message; });
                } }),
              ]),
            ]);
          })),
        ]));
      }).catch(function (error) { list.textContent = 'Could not list: ' + error.message; });
    }
    function upload(event) {
      event.preventDefault();
      var chosen = file.files && file.files[0];
      if (!chosen) { outcome.textContent = 'Choose a file first.'; return; }
      var objectKey = key.value || 'uploads/' + chosen.name;
      fw.request('POST', url, { action: 'presign-upload', key: objectKey, contentType: chosen.type || 'application/octet-stream' }).then(function (signed) {
        var form = new FormData();
        Object.keys(signed.fields).forEach(function (name) { form.append(name, signed.fields[name]); });
        form.append('file', chosen);
        return fetch(signed.url, { method: 'POST', body: form }).then(function (response) {
          if (!response.ok) return response.text().then(function (text) { throw new Error('HTTP ' + response.status + ' ' + text); });
          outcome.textContent = 'Uploaded ' + objectKey;
          return refresh();
        });
      }).catch(function (error) { outcome.textContent = 'Upload failed: ' + error.message; });
    }
    refresh();
    return el('section', { 'data-bucket': bucket.id }, [
      el('h2', { text: bucket.id }),
      el('label', {}, ['Prefix ', prefix, ' ', el('button', { type: 'button', text: 'List', 'aria-label': 'List ' + bucket.id, onclick: refresh })]),
      list,
      el('form', { 'data-storage-upload': bucket.id, onsubmit: upload }, [
        el('h3', { text: 'Upload (through a presigned form)' }),
        el('label', {}, ['File ', file]),
        el('label', {}, ['Key ', key]),
        el('button', { type: 'submit', text: 'Upload', 'aria-label': 'Upload to ' + bucket.id }),
      ]),
      outcome,
    ]);
  }

  fw.addTab('storage', 'Storage', function (panel) {
    fw.request('GET', '${CONSOLE_PATHS.app}').then(function (app) {
      if (!app.buckets || !app.buckets.length) { panel.appendChild(el('p', { text: 'This app has no storage buckets.' })); return; }
      app.buckets.forEach(function (bucket) { panel.appendChild(bucketCard(bucket)); });
    }).catch(function (error) { panel.appendChild(el('p', { class: 'error', text: 'Could not load the buckets: ' + error.message })); });
  });
})();
`;
