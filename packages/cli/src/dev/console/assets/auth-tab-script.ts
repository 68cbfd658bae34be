import { DEV_PATHS } from '@framework/core';
import { CONSOLE_PATHS } from '../console-paths.js';

/**
 * The Auth tab (browser script, see `SHELL_SCRIPT`): the dev issuer's users with their roles, tenant and state (the
 * user store `service.auth` and `fw auth users` use, through `POST /_dev/console/auth`), create a user (of a tenant),
 * move one to another tenant (or out of any), disable or enable one, and mint a token for a role and tenant
 * (`POST /_dev/token`, as the Routes tab's picker does).
 */
export const AUTH_TAB_SCRIPT = `
(function () {
  'use strict';
  var fw = window.fwConsole;
  var el = fw.el;

  function call(action, args) { return fw.request('POST', '${CONSOLE_PATHS.auth}', { action: action, args: args }).then(function (a) { return a.result; }); }

  fw.addTab('auth', 'Auth', function (panel) {
    var outcome = el('p', { id: 'auth-outcome', 'aria-live': 'polite' });
    var users = el('div', { id: 'auth-users' });
    var tokenOut = el('pre', { id: 'auth-token' });
    // The users the move form offers, refilled with the list (the chosen one kept).
    var moveUser = el('select', { id: 'auth-move-user', 'aria-label': 'User to move' });
    function refresh() {
      return call('listUsers', [{}]).then(function (page) {
        var chosen = moveUser.value;
        moveUser.textContent = '';
        page.users.forEach(function (u) { moveUser.appendChild(el('option', { value: u.username, text: u.username })); });
        if (chosen) moveUser.value = chosen;
        users.textContent = '';
        if (!page.users.length) { users.appendChild(el('p', { class: 'note', text: 'No users yet.' })); return; }
        users.appendChild(el('table', {}, [
          el('thead', {}, [el('tr', {}, ['User', 'Email', 'Roles', 'Tenant', 'State', ''].map(function (h) { return el('th', { scope: 'col', text: h }); }))]),
          el('tbody', {}, page.users.map(function (u) {
            return el('tr', { 'data-user': u.username }, [
              el('td', { class: 'mono', text: u.username }),
              el('td', { text: u.email || '' }),
              el('td', { text: (u.roles || []).join(', ') }),
              el('td', { class: 'mono', text: u.tenant || '' }),
              el('td', { text: (u.enabled === false ? 'disabled' : 'enabled') + (u.status === 'UNCONFIRMED' ? ', unconfirmed' : '') }),
              el('td', {}, [el('button', { type: 'button', text: u.enabled === false ? 'Enable' : 'Disable', 'aria-label': (u.enabled === false ? 'Enable ' : 'Disable ') + u.username, onclick: function () {
                call(u.enabled === false ? 'enableUser' : 'disableUser', [u.username]).then(function () { outcome.textContent = (u.enabled === false ? 'Enabled ' : 'Disabled ') + u.username; return refresh(); }).catch(function (e) { outcome.textContent = e.message; });
              } })].concat(u.status === 'UNCONFIRMED' ? [' ', el('button', { type: 'button', text: 'Confirm', 'aria-label': 'Confirm ' + u.username, onclick: function () {
                // A user who signed up and has not entered their code (service.auth.confirmUser, AdminConfirmSignUp).
                call('confirmUser', [u.username]).then(function () { outcome.textContent = 'Confirmed ' + u.username + ': they can sign in'; return refresh(); }).catch(function (e) { outcome.textContent = e.message; });
              } })] : [])),
            ]);
          })),
        ]));
      }).catch(function (error) { users.textContent = 'Could not list the users: ' + error.message; });
    }
    fw.request('GET', '${CONSOLE_PATHS.app}').then(function (app) {
      var roleNames = Object.keys(app.roles);
      var username = el('input', { type: 'text', id: 'auth-new-username', 'aria-label': 'User name' });
      var email = el('input', { type: 'text', id: 'auth-new-email', 'aria-label': 'Email' });
      var tenant = el('input', { type: 'text', id: 'auth-new-tenant', 'aria-label': 'Tenant (empty: a user of no tenant)' });
      var password = el('input', { type: 'text', id: 'auth-new-password', 'aria-label': 'Temporary password (empty: an invitation, whose password fw dev prints)' });
      var roleBoxes = roleNames.map(function (role) { return el('label', {}, [el('input', { type: 'checkbox', value: role }), ' ' + role]); });
      var create = el('form', { id: 'auth-create' }, [
        el('h2', { text: 'Create a user' }),
        el('label', {}, ['User name ', username]),
        el('label', {}, ['Email ', email]),
        el('label', {}, ['Tenant ', tenant]),
        el('label', {}, ['Temporary password ', password]),
        el('fieldset', {}, [el('legend', { text: 'Roles' })].concat(roleBoxes)),
        el('button', { type: 'submit', text: 'Create' }),
      ]);
      create.addEventListener('submit', function (event) {
        event.preventDefault();
        var input = { username: username.value, roles: roleBoxes.map(function (b) { return b.firstChild; }).filter(function (b) { return b.checked; }).map(function (b) { return b.value; }) };
        if (email.value) input.email = email.value;
        if (tenant.value) input.tenant = tenant.value;
        if (password.value) input.temporaryPassword = password.value;
        else input.invite = true;
        call('createUser', [input]).then(function (u) { outcome.textContent = 'Created ' + u.username; return refresh(); }).catch(function (e) { outcome.textContent = 'Create failed: ' + e.message; });
      });
      var moveTenant = el('input', { type: 'text', id: 'auth-move-tenant', 'aria-label': 'Their tenant (empty: none)' });
      var move = el('form', { id: 'auth-move' }, [
        el('h2', { text: 'Move a user to a tenant' }),
        el('p', { class: 'note', text: 'service.auth.setTenant: their tokens carry it from their next sign-in or refresh.' }),
        el('label', {}, ['User ', moveUser]),
        el('label', {}, ['Tenant ', moveTenant]),
        el('button', { type: 'submit', text: 'Set tenant' }),
      ]);
      move.addEventListener('submit', function (event) {
        event.preventDefault();
        var who = moveUser.value;
        var where = moveTenant.value;
        call('setTenant', [who, where || null]).then(function () { outcome.textContent = where ? 'Moved ' + who + ' to tenant ' + where : 'Moved ' + who + ' out of any tenant'; return refresh(); })
          .catch(function (e) { outcome.textContent = 'Move failed: ' + e.message; });
      });
      var role = el('select', { id: 'auth-token-role', 'aria-label': 'Role of the token' }, roleNames.map(function (r) { return el('option', { value: r, text: r + ' (' + app.roles[r].join(', ') + ')' }); }));
      var sub = el('input', { type: 'text', id: 'auth-token-sub', 'aria-label': 'User id (sub) of the token', value: 'console-user' });
      var tokenTenant = el('input', { type: 'text', id: 'auth-token-tenant', 'aria-label': 'Tenant of the token (custom:tenant_id; empty: none)' });
      var mint = el('form', { id: 'auth-mint' }, [
        el('h2', { text: 'Mint a token for a role' }),
        el('label', {}, ['Role ', role]),
        el('label', {}, ['User id ', sub]),
        el('label', {}, ['Tenant ', tokenTenant]),
        el('button', { type: 'submit', text: 'Mint token' }),
        tokenOut,
      ]);
      mint.addEventListener('submit', function (event) {
        event.preventDefault();
        var request = { roles: [role.value], sub: sub.value || 'console-user' };
        if (tokenTenant.value) request.tenant = tokenTenant.value;
        fw.request('POST', '${DEV_PATHS.token}', request).then(function (a) { tokenOut.textContent = a.access_token; outcome.textContent = 'Token for role ' + role.value + (a.tenant ? ' of tenant ' + a.tenant : '') + ': ' + a.scope; })
          .catch(function (e) { outcome.textContent = 'Mint failed: ' + e.message; });
      });
      panel.appendChild(el('h2', { text: 'Users' }));
      panel.appendChild(users);
      panel.appendChild(outcome);
      panel.appendChild(create);
      panel.appendChild(move);
      if (roleNames.length) panel.appendChild(mint);
      refresh();
    }).catch(function (error) { panel.appendChild(el('p', { class: 'error', text: error.message })); });
  });
})();
`;
