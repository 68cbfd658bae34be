import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CognitoIdentityProviderClient, CreateGroupCommand, CreateUserPoolCommand } from '@aws-sdk/client-cognito-identity-provider';
import { InvalidUserInputError, NothingToConfirmError, UnknownRoleError, UserNotFoundError } from '@framework/auth';
import { expect } from 'chai';
import { CognitoLocal } from '../../../auth/test/helpers/cognito-local.js';
import { parseAuthArguments, runAuth } from '../../src/commands/auth.js';
import { AuthCommandError } from '../../src/errors.js';
import { REPO } from '../dev/helpers.js';

/** A copy of the example app (its node_modules linked), so the users file is written outside the repository. */
function exampleCopy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-auth-example-'));
  const example = path.join(REPO, 'examples', 'tasks-api');
  fs.cpSync(example, dir, { recursive: true, filter: (source) => !/[\\/](node_modules|\.fw|cdk\.out)$/.test(source) });
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

/**
 * `runAuth` loads the app in this process, and loading an app sets FW_STAGE and FW_PROJECT_ROOT for its config files:
 * each suite puts the FW_* variables back afterwards, so a later test's child process does not inherit `--stage prod`.
 */
function restoreFrameworkEnvironmentAfterSuite(): void {
  let saved: Record<string, string | undefined> = {};
  before(() => (saved = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('FW_')))));
  after(() => {
    for (const name of Object.keys(process.env)) if (name.startsWith('FW_') && !(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  });
}

describe('fw auth on the example app', function () {
  restoreFrameworkEnvironmentAfterSuite();
  this.timeout(180_000);
  let dir: string;
  before(() => {
    dir = exampleCopy();
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const fw = async (...argv: string[]) => {
    const lines: string[] = [];
    const code = await runAuth(argv, { cwd: dir, out: (line) => lines.push(line) });
    return { code, lines, text: lines.join('\n') };
  };
  const row = (text: string, routeKey: string) => text.split('\n').find((l) => l.startsWith(`${routeKey} `))!.split(/\s{2,}/);

  it('fw auth routes: every route, its scopes, the roles and machine clients that reach it; public routes flagged', async () => {
    const { code, text } = await fw('routes');
    expect(code).to.equal(0);
    expect(text.split('\n')[0]).to.match(/^ROUTE\s+SCOPES\s+ROLES\s+MACHINE CLIENTS$/);
    expect(row(text, 'GET /tasks')).to.deep.equal(['GET /tasks', 'tasks:read', 'admin, member', 'reporting']);
    expect(row(text, 'POST /tasks')).to.deep.equal(['POST /tasks', 'tasks:write', 'admin', '-']);
    expect(row(text, 'DELETE /tasks/{id}')).to.deep.equal(['DELETE /tasks/{id}', 'tasks:admin', 'admin', '-']);
    expect(row(text, 'GET /health')).to.deep.equal(['GET /health', 'PUBLIC (no token needed)', 'anyone', 'anyone']);
    // The billing webhook is open to the provider: its signature, not a token, authenticates it.
    expect(text).to.contain('2 public routes (no scopes: check each is meant to be open): POST /billing/webhook (src/routes/billing/webhook/post.ts), GET /health (src/routes/health/get.ts)');
  });

  it('fw auth users: the seeded users, then create, set-roles, disable, sign-out and delete on the dev store', async () => {
    const listed = await fw('users');
    expect(listed.lines[0]).to.match(/^USERNAME\s+ROLES\s+TENANT\s+ENABLED\s+STATUS\s+EMAIL$/);
    expect(row(listed.text, 'ada')).to.deep.equal(['ada', 'admin', 'acme', 'yes', 'CONFIRMED', 'ada@example.com']);
    expect(row(listed.text, 'mia')).to.deep.equal(['mia', 'member', 'acme', 'yes', 'CONFIRMED', 'mia@example.com']);

    expect((await fw('users', 'create', 'newbie@example.com', '--roles', 'member', '--password', 'Temp-pass-123')).text).to.equal('created newbie@example.com (fw dev) with roles member');
    expect((await fw('users', 'set-roles', 'newbie@example.com', '--roles', 'admin,member')).text).to.equal('newbie@example.com (fw dev) now has roles admin, member');
    await fw('users', 'disable', 'newbie@example.com');
    await fw('users', 'sign-out', 'newbie@example.com');
    expect(row((await fw('users', 'list')).text, 'newbie@example.com')).to.deep.equal(['newbie@example.com', 'admin, member', '-', 'no', 'FORCE_CHANGE_PASSWORD', 'newbie@example.com']);
    const stored = JSON.parse(fs.readFileSync(path.join(dir, '.fw', 'dev', 'auth', 'users.json'), 'utf8')) as { users: { username: string; signedOutAt?: number; passwordHash: string }[] };
    const newbie = stored.users.find((u) => u.username === 'newbie@example.com')!;
    expect(newbie.signedOutAt).to.be.a('number');
    expect(newbie.passwordHash).to.match(/^scrypt\$/);
    await fw('users', 'delete', 'newbie@example.com');
    expect((await fw('users')).text).not.to.contain('newbie');

    const invited = await fw('users', 'create', 'guest@example.com', '--invite');
    expect(invited.lines[0]).to.match(/^invited guest@example\.com: fw dev sends no mail; the temporary password is \S+$/);

    // A user of a tenant: the store keeps it, and their tokens carry it (custom:tenant_id)
    const member = await fw('users', 'create', 'lee@example.com', '--roles', 'member', '--tenant', 'globex', '--invite');
    expect(member.lines[0]).to.match(/^invited lee@example\.com to tenant globex: fw dev sends no mail; the temporary password is \S+$/);
    expect(member.lines[1]).to.equal('created lee@example.com (fw dev) with roles member in tenant globex');
    expect(row((await fw('users')).text, 'lee@example.com')).to.deep.equal(['lee@example.com', 'member', 'globex', 'yes', 'FORCE_CHANGE_PASSWORD', 'lee@example.com']);

    // Moved to another tenant, then out of any
    expect((await fw('users', 'set-tenant', 'lee@example.com', '--tenant', 'initech')).text).to.equal('lee@example.com (fw dev) is now in tenant initech: their tokens carry it from their next sign-in or refresh');
    expect(row((await fw('users')).text, 'lee@example.com')[2]).to.equal('initech');
    expect((await fw('users', 'set-tenant', 'lee@example.com', '--tenant', '')).text).to.equal('lee@example.com (fw dev) is now in no tenant: their tokens carry it from their next sign-in or refresh');
    expect(row((await fw('users')).text, 'lee@example.com')[2]).to.equal('-');
  });

  it('refuses an undeclared role (naming the declared ones), an unknown user and a malformed command line', async () => {
    const role = await fw('users', 'set-roles', 'mia', '--roles', 'owner').catch((e: unknown) => e);
    expect(role).to.be.instanceOf(UnknownRoleError);
    expect((role as Error).message).to.contain('declared roles: admin, member');
    expect(await fw('users', 'delete', 'nobody').catch((e: unknown) => e)).to.be.instanceOf(UserNotFoundError);
    expect(await fw('users', 'set-tenant', 'nobody', '--tenant', 'acme').catch((e: unknown) => e)).to.be.instanceOf(UserNotFoundError);
    expect(await fw('users', 'set-tenant', 'mia', '--tenant', 'a/b').catch((e: unknown) => e)).to.be.instanceOf(InvalidUserInputError);
    // A seeded user is CONFIRMED: nothing to confirm (a signed-up one is confirmed in test/dev/oauth-sign-up.test.ts)
    expect(await fw('users', 'confirm', 'mia').catch((e: unknown) => e)).to.be.instanceOf(NothingToConfirmError).with.property('status', 'CONFIRMED');
    expect(await fw('users', 'confirm', 'nobody').catch((e: unknown) => e)).to.be.instanceOf(UserNotFoundError);
    for (const argv of [['users', 'create', 'x'], ['users', 'create', 'x', '--password', 'p', '--invite'], ['users', 'set-roles', 'mia', '--roles', 'admin', '--tenant', 'globex'], ['users', 'set-roles', 'mia'], ['users', 'set-tenant', 'mia'], ['users', 'delete', 'mia', '--tenant', 'acme'], ['users', 'disable'], ['users', 'confirm'], ['users', 'confirm', 'a', 'b'], ['users', 'fly'], ['teams'], ['users', 'list', '--force']]) {
      expect(() => parseAuthArguments(argv), argv.join(' ')).to.throw(AuthCommandError).with.property('code', 'FW_ERR_AUTH_COMMAND_BAD_ARGUMENT');
    }
  });
});

describe('fw auth users --stage: the deployed pool through service.auth\'s Cognito implementation (against cognito-local)', function () {
  restoreFrameworkEnvironmentAfterSuite();
  this.timeout(120_000);
  let dir: string;
  let cognito: CognitoLocal;
  let userPoolId: string;
  const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

  before(async () => {
    dir = exampleCopy();
    cognito = await CognitoLocal.start();
    const admin = new CognitoIdentityProviderClient({ region: 'us-east-1', endpoint: cognito.endpoint, credentials });
    // The pool as infra declares it: with the tenant custom attribute.
    userPoolId = (await admin.send(new CreateUserPoolCommand({ PoolName: 'tasks-api-prod', Schema: [{ Name: 'tenant_id', AttributeDataType: 'String', Mutable: true }] }))).UserPool!.Id!;
    for (const role of ['admin', 'member']) await admin.send(new CreateGroupCommand({ UserPoolId: userPoolId, GroupName: role }));
    admin.destroy();
  });
  after(async () => {
    await cognito?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('creates a user in a role and lists it from the pool, not from the dev store', async () => {
    const lines: string[] = [];
    const options = { cwd: dir, out: (line: string) => lines.push(line), userPoolOf: async () => userPoolId, cognito: { region: 'us-east-1', endpoint: cognito.endpoint, credentials } };
    await runAuth(['users', 'create', 'ops@example.com', '--roles', 'admin', '--password', 'Temp-pass-123', '--stage', 'prod'], options);
    expect(lines.pop()).to.equal('created ops@example.com (stage prod) with roles admin');
    await runAuth(['users', 'create', 'kim@example.com', '--roles', 'member', '--tenant', 'acme', '--password', 'Temp-pass-123', '--stage', 'prod'], options);
    expect(lines.pop()).to.equal('created kim@example.com (stage prod) with roles member in tenant acme');
    await runAuth(['users', 'list', '--stage', 'prod'], options);
    expect(lines.join('\n')).to.match(/^ops@example\.com\s+admin\s+-\s+yes\s+FORCE_CHANGE_PASSWORD\s+ops@example\.com$/m).and.not.contain('mia');
    expect(lines.join('\n')).to.match(/^kim@example\.com\s+member\s+acme\s+yes\s+FORCE_CHANGE_PASSWORD\s+kim@example\.com$/m);
    await runAuth(['users', 'set-tenant', 'kim@example.com', '--tenant', 'globex', '--stage', 'prod'], options);
    expect(lines.pop()).to.equal('kim@example.com (stage prod) is now in tenant globex: their tokens carry it from their next sign-in or refresh');
    lines.length = 0;
    await runAuth(['users', 'list', '--stage', 'prod'], options);
    expect(lines.join('\n')).to.match(/^kim@example\.com\s+member\s+globex\s+yes/m);
    expect(await runAuth(['users', '--stage', 'prod'], { ...options, userPoolOf: async () => undefined }).catch((e: unknown) => e)).to.be.instanceOf(AuthCommandError).with.property('code', 'FW_ERR_AUTH_COMMAND_NO_POOL');
  });
});
