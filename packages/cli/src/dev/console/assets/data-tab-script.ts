import { CONSOLE_PATHS } from '../console-paths.js';

/**
 * The Data tab (browser script, see `SHELL_SCRIPT`): each database's tables with their row counts, its migrations
 * (applied, pending, changed, missing) and a query box (`POST /_dev/console/databases/<id>/query`: read-only, one
 * statement, a timeout and a row cap on the server). A table's name fills the box with a select of its first rows.
 */
export const DATA_TAB_SCRIPT = `
(function () {
  'use strict';
  var fw = window.fwConsole;
  var el = fw.el;

  function cell(value) {
    if (value === null || value === undefined) return el('td', { class: 'note', text: 'null' });
    return el('td', { class: 'mono', text: typeof value === 'object' ? JSON.stringify(value) : String(value) });
  }

  function databaseCard(db) {
    var sql = el('textarea', { 'aria-label': 'SQL for ' + db.id, 'data-database-sql': db.id, spellcheck: 'false' });
    var result = el('div', { 'data-database-result': db.id, 'aria-live': 'polite' });
    function run() {
      result.textContent = 'Running…';
      fw.request('POST', '${CONSOLE_PATHS.databases}/' + encodeURIComponent(db.id) + '/query', { sql: sql.value }).then(function (answer) {
        result.textContent = '';
        result.appendChild(el('p', { class: 'note', text: answer.rows.length + ' rows' + (answer.truncated ? ' (more not shown)' : '') + ' · ' + answer.durationMs.toFixed(1) + ' ms' }));
        result.appendChild(el('table', {}, [
          el('thead', {}, [el('tr', {}, answer.columns.map(function (c) { return el('th', { scope: 'col', text: c }); }))]),
          el('tbody', {}, answer.rows.map(function (row) { return el('tr', {}, answer.columns.map(function (c) { return cell(row[c]); })); })),
        ]));
      }).catch(function (error) { result.textContent = ''; result.appendChild(el('p', { class: 'error', text: error.message })); });
    }
    var tables = db.tables.length ? el('table', { 'data-database-tables': db.id }, [
      el('thead', {}, [el('tr', {}, ['Table', 'Rows'].map(function (h) { return el('th', { scope: 'col', text: h }); }))]),
      el('tbody', {}, db.tables.map(function (t) {
        var name = t.schema === 'public' ? t.name : t.schema + '.' + t.name;
        return el('tr', {}, [
          el('td', {}, [el('button', { type: 'button', class: 'link', text: name, 'aria-label': 'Query ' + name, onclick: function () { sql.value = 'select * from "' + t.schema + '"."' + t.name + '" limit 50'; run(); } })]),
          el('td', { text: String(t.rows) }),
        ]);
      })),
    ]) : el('p', { class: 'note', text: 'No tables yet.' });
    var migrations = db.migrations.length ? el('ul', { 'data-database-migrations': db.id }, db.migrations.map(function (m) {
      return el('li', { class: m.state === 'applied' ? null : 'error', text: m.version + ' ' + m.name + ': ' + m.state + (m.appliedAt ? ' (' + m.appliedAt + ')' : '') });
    })) : el('p', { class: 'note', text: db.migrationsError ? 'Migrations: ' + db.migrationsError : 'No migrations.' });
    return el('section', { 'data-database': db.id }, [
      el('h2', { text: db.id + ' (' + db.name + ')' }),
      db.error ? el('p', { class: 'error', text: db.error }) : null,
      tables,
      el('h3', { text: 'Migrations' }),
      migrations,
      el('label', {}, ['Query (read-only, one statement)', sql]),
      el('button', { type: 'button', text: 'Run', 'aria-label': 'Run the query on ' + db.id, onclick: run }),
      result,
    ]);
  }

  fw.addTab('data', 'Data', function (panel) {
    function load() {
      panel.textContent = '';
      panel.appendChild(el('button', { type: 'button', text: 'Refresh', onclick: load }));
      fw.request('GET', '${CONSOLE_PATHS.databases}').then(function (databases) {
        databases.forEach(function (db) { panel.appendChild(databaseCard(db)); });
      }).catch(function (error) {
        panel.appendChild(el('p', { class: /404/.test(error.message) || /no route/i.test(error.message) ? 'note' : 'error', text: /404|no route/i.test(error.message) ? 'This app has no database.' : 'Could not read the databases: ' + error.message }));
      });
    }
    load();
  });
})();
`;
