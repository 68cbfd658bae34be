import type { AppDefinition } from '@framework/core';
import { expect } from 'chai';
import { startupTable } from '../../src/dev/startup-table.js';

/** The parts of an app the start-up table reads: one scoped route, the stage's seeded users as given. */
function app(users: readonly { username: string; password: string; tenant?: string }[] | undefined): AppDefinition {
  return {
    project: 'tasks-api',
    stage: 'dev',
    routes: [{ method: 'GET', path: '/tasks', file: 'src/routes/tasks/get.ts', functionName: 'tasks-api-dev-get-tasks', pathParams: [] }],
    functions: [],
    queues: [],
    crons: [],
    config: { security: { scopes: { 'tasks:read': 'read' } }, ...(users ? { auth: { users } } : {}) },
  } as unknown as AppDefinition;
}

const scopes = new Map([['tasks-api-dev-get-tasks', ['tasks:read']]]);
const tokenBody = (table: string) => JSON.parse(/-d '([^']+)'/.exec(table)![1]!) as { sub: string; scopes: string[] };

describe('the start-up table of fw dev', () => {
  it("shows a token request for a seeded user of a tenant when the stage has one (a multi-tenant app's routes answer it)", () => {
    const table = startupTable(app([{ username: 'ops', password: 'x' }, { username: 'ada', password: 'y', tenant: 'acme' }]), 'http://127.0.0.1:3000', scopes, []);
    expect(tokenBody(table)).to.deep.equal({ scopes: ['tasks:read'], sub: 'ada' });
    expect(table).to.contain('curl -H "Authorization: Bearer <access_token>" http://127.0.0.1:3000/tasks');
  });

  it('shows a token request for a made-up user when no seeded user has a tenant', () => {
    expect(tokenBody(startupTable(app([{ username: 'ops', password: 'x' }]), 'http://127.0.0.1:3000', scopes, [])).sub).to.equal('user-1');
    expect(tokenBody(startupTable(app(undefined), 'http://127.0.0.1:3000', scopes, [])).sub).to.equal('user-1');
  });
});
