import { expect } from 'chai';
import { defineApp } from '@framework/core';
import { referencesOf, SERVICE_AUTH_ACTIONS } from '../src/index.js';
import { SMALL_APP, routeSource, tempProject } from './helpers/temp-project.js';
import { functionNamed, permissionsOf, synthesize, type Synthesized } from './helpers/synth-once.js';

describe('service.auth grants: the Cognito admin actions on the app\'s pool, to the functions that call service.auth only', () => {
  const project = tempProject({
    'src/routes/users/post.ts': `export const main = Object.assign(async (event: any, _c: unknown, service: any) => service.auth.createUser(JSON.parse(event.body)), { handlerInfo: { kind: 'http', scopes: [], middleware: [] } });\n`,
    'src/routes/report/get.ts': `export const main = Object.assign(async (_e: unknown, _c: unknown, { auth }: any) => fetch('https://example.com', { headers: { authorization: await auth.machineToken('reports') } }), { handlerInfo: { kind: 'http', scopes: [], middleware: [] } });\n`,
    'src/routes/items/get.ts': routeSource(['items:read']),
  });
  let dev: Synthesized;

  before(function () {
    this.timeout(240_000);
    dev = synthesize(defineApp({ ...SMALL_APP, rootDir: project.dir, infrastructure: { auth: {} } }));
  });
  after(() => {
    dev?.cleanup();
    project.remove();
  });

  it('grants every action service.auth calls, on the pool\'s ARN and nothing wider, to both callers', () => {
    for (const caller of ['shop-dev-route-post-users', 'shop-dev-route-get-report']) {
      const grant = permissionsOf(dev, caller).statements.find((s) => [s.Action].flat().includes('cognito-idp:AdminCreateUser'));
      expect(grant, caller).to.not.equal(undefined);
      expect([grant!.Action].flat().sort()).to.deep.equal([...SERVICE_AUTH_ACTIONS].sort());
      expect(JSON.stringify(grant!.Resource)).to.match(/UserPool[A-Z0-9]*", *"Arn"|UserPool.*Arn/);
      expect(JSON.stringify(grant!.Resource)).not.to.contain('*');
    }
  });

  it('grants none to a function that does not call it', () => {
    expect(functionNamed(dev, 'shop-dev-route-get-items')).to.have.property('logicalId');
    expect(permissionsOf(dev, 'shop-dev-route-get-items').actions.filter((a) => a.startsWith('cognito-idp:'))).to.deep.equal([]);
  });

  it('reads the call from the code: a method of service.auth, auth destructured, or Cognito\'s SDK imported', () => {
    expect(referencesOf('await service.auth.setRoles(id, ["member"])').authAdmin).to.equal(true);
    expect(referencesOf('const { auth } = service; await auth?.listUsers()').authAdmin).to.equal(true);
    // confirmUser (support confirming a user who signed up) is AdminConfirmSignUp, in the same grant
    expect(referencesOf('const { auth } = service; await auth.confirmUser(username)').authAdmin).to.equal(true);
    expect(SERVICE_AUTH_ACTIONS).to.include('cognito-idp:AdminConfirmSignUp');
    expect(referencesOf('useAdmin(service.auth)').authAdmin).to.equal(true);
    expect(referencesOf('', new Set(['@aws-sdk/client-cognito-identity-provider'])).authAdmin).to.equal(true);
    expect(referencesOf('const subject = ctx.auth.subject; ctx.auth.can("x")').authAdmin).to.equal(undefined);
  });
});
