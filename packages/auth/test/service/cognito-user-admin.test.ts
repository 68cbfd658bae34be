import {
  AdminAddUserToGroupCommand,
  AdminConfirmSignUpCommand,
  AdminDeleteUserAttributesCommand,
  AdminGetUserCommand,
  AdminUpdateUserAttributesCommand,
  AdminUserGlobalSignOutCommand,
  CognitoIdentityProviderClient,
  CreateGroupCommand,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  DescribeUserPoolClientCommand,
  DescribeUserPoolCommand,
  ListUsersCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { mockClient } from 'aws-sdk-client-mock';
import { expect } from 'chai';
import { createAuthService, InvalidUserInputError, NothingToConfirmError, UnknownAppClientError, UnknownRoleError, UserExistsError, UserNotFoundError, type AuthService } from '../../src/index.js';
import { CognitoLocal } from '../helpers/cognito-local.js';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const ROLES = ['admin', 'member'];

describe('service.auth on Cognito, against cognito-local', function () {
  this.timeout(60000);
  let cognito: CognitoLocal;
  let auth: AuthService;
  let admin: CognitoIdentityProviderClient;
  let userPoolId: string;

  before(async () => {
    cognito = await CognitoLocal.start();
    admin = new CognitoIdentityProviderClient({ region: 'eu-west-1', endpoint: cognito.endpoint, credentials });
    // As infra declares it: with the tenant custom attribute (custom:tenant_id).
    const pool = await admin.send(new CreateUserPoolCommand({ PoolName: 'shop-dev-users', Schema: [{ Name: 'tenant_id', AttributeDataType: 'String', Mutable: true }] }));
    userPoolId = pool.UserPool!.Id!;
    // As infra synthesizes it: a group per declared role, plus a group no role declares (a federated provider's).
    for (const role of [...ROLES, 'eu-west-1_x_Google']) await admin.send(new CreateGroupCommand({ UserPoolId: userPoolId, GroupName: role }));
    auth = createAuthService({ env: { FW_AUTH_USER_POOL_ID: userPoolId, FW_AUTH_ROLES: ROLES.join(','), FW_AUTH_AUDIENCE: '' }, cognito: { region: 'eu-west-1', endpoint: cognito.endpoint, credentials } });
  });

  after(async () => {
    admin?.destroy();
    await cognito?.stop();
  });

  it('creates a user with a temporary password and roles, then reads them back', async () => {
    const created = await auth.createUser({ username: 'ada@example.com', roles: ['member'], temporaryPassword: 'Temp-pass-123' });
    expect(created).to.include({ username: 'ada@example.com', email: 'ada@example.com', enabled: true, status: 'FORCE_CHANGE_PASSWORD' });
    expect(created.sub).to.match(/^[0-9a-f-]{36}$/);
    const read = await auth.getUser('ada@example.com');
    expect(read).to.deep.include({ username: 'ada@example.com', sub: created.sub, roles: ['member'], enabled: true });
    expect(read!.createdAt).to.be.instanceOf(Date);
  });

  it('creates a user of a tenant: the custom:tenant_id attribute, read back as tenant (a user without one has none)', async () => {
    const created = await auth.createUser({ username: 'lee@example.com', roles: ['member'], tenant: 'acme', invite: true });
    expect(created).to.include({ username: 'lee@example.com', tenant: 'acme' });
    const stored = await admin.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: 'lee@example.com' }));
    expect(stored.UserAttributes).to.deep.include({ Name: 'custom:tenant_id', Value: 'acme' });
    expect(await auth.getUser('lee@example.com')).to.deep.include({ tenant: 'acme', roles: ['member'] });
    expect((await auth.listUsers()).users.find((u) => u.username === 'lee@example.com')).to.deep.include({ tenant: 'acme' });
    await auth.createUser({ username: 'solo@example.com', temporaryPassword: 'Temp-pass-123' });
    expect(await auth.getUser('solo@example.com')).not.to.have.property('tenant');
  });

  it('setTenant moves a user into a tenant, into another, and out of any (AdminUpdateUserAttributes, AdminDeleteUserAttributes)', async () => {
    // A user who signed up alone, then created a workspace
    await auth.createUser({ username: 'sam@example.com', temporaryPassword: 'Temp-pass-123' });
    await auth.setTenant('sam@example.com', 'initech');
    const attributes = async () => (await admin.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: 'sam@example.com' }))).UserAttributes;
    expect(await attributes()).to.deep.include({ Name: 'custom:tenant_id', Value: 'initech' });
    expect(await auth.getUser('sam@example.com')).to.deep.include({ tenant: 'initech' });
    await auth.setTenant('sam@example.com', 'globex');
    expect(await auth.getUser('sam@example.com')).to.deep.include({ tenant: 'globex' });
    await auth.setTenant('sam@example.com', undefined);
    expect((await attributes())!.map((a) => a.Name)).not.to.include('custom:tenant_id');
    expect(await auth.getUser('sam@example.com')).not.to.have.property('tenant');
    // Bad input is refused before Cognito is called; an unknown user is UserNotFoundError
    for (const tenant of ['', 'acme/../globex', 42]) {
      expect(await auth.setTenant('sam@example.com', tenant as never).catch((e: unknown) => e)).to.be.instanceOf(InvalidUserInputError).with.property('code', 'FW_ERR_AUTH_INVALID_INPUT');
    }
  });

  it('invites a user (Cognito generates the temporary password)', async () => {
    const invited = await auth.createUser({ username: 'grace@example.com', invite: true });
    expect(invited).to.include({ username: 'grace@example.com', status: 'FORCE_CHANGE_PASSWORD' });
    expect((await auth.getUser('grace@example.com'))!.roles).to.deep.equal([]);
  });

  it('refuses a username that is taken, with UserExistsError', async () => {
    await auth.createUser({ username: 'taken@example.com', temporaryPassword: 'Temp-pass-123' });
    const error = await auth.createUser({ username: 'taken@example.com', temporaryPassword: 'Temp-pass-123' }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(UserExistsError).with.property('code', 'FW_ERR_AUTH_USER_EXISTS');
  });

  it('setRoles applies the difference and leaves groups that are no role alone', async () => {
    await auth.createUser({ username: 'linus@example.com', roles: ['member'], temporaryPassword: 'Temp-pass-123' });
    await auth.setRoles('linus@example.com', ['admin', 'member']);
    expect((await auth.getUser('linus@example.com'))!.roles).to.deep.equal(['admin', 'member']);
    await auth.setRoles('linus@example.com', ['admin']);
    expect((await auth.getUser('linus@example.com'))!.roles).to.deep.equal(['admin']);
    const { Username } = await admin.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: 'linus@example.com' }));
    await admin.send(new AdminAddUserToGroupCommand({ UserPoolId: userPoolId, Username, GroupName: 'eu-west-1_x_Google' }));
    await auth.setRoles('linus@example.com', []);
    expect((await auth.getUser('linus@example.com'))!.roles).to.deep.equal(['eu-west-1_x_Google']);
  });

  it('refuses a role config/security.ts does not declare, naming the declared ones', async () => {
    await auth.createUser({ username: 'ken@example.com', temporaryPassword: 'Temp-pass-123' });
    const error = await auth.setRoles('ken@example.com', ['member', 'owner']).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(UnknownRoleError).with.property('code', 'FW_ERR_AUTH_UNKNOWN_ROLE');
    expect((error as Error).message).to.contain('"owner"').and.contain('declared roles: admin, member');
    // A group of the pool that is no declared role is refused as well: it grants nothing.
    expect(await auth.setRoles('ken@example.com', ['eu-west-1_x_Google']).catch((e: unknown) => e)).to.be.instanceOf(UnknownRoleError);
    expect(await auth.createUser({ username: 'ken2@example.com', roles: ['owner'], temporaryPassword: 'Temp-pass-123' }).catch((e: unknown) => e)).to.be.instanceOf(UnknownRoleError);
    expect(await auth.getUser('ken2@example.com')).to.equal(undefined);
  });

  it('disables, enables and deletes a user', async () => {
    await auth.createUser({ username: 'barbara@example.com', temporaryPassword: 'Temp-pass-123' });
    await auth.disableUser('barbara@example.com');
    expect((await auth.getUser('barbara@example.com'))!.enabled).to.equal(false);
    await auth.enableUser('barbara@example.com');
    expect((await auth.getUser('barbara@example.com'))!.enabled).to.equal(true);
    await auth.deleteUser('barbara@example.com');
    expect(await auth.getUser('barbara@example.com')).to.equal(undefined);
  });

  it('confirmUser confirms a user who signed up (AdminConfirmSignUp); a confirmed user or one created by an admin has nothing to confirm', async () => {
    // Self sign-up, as a front end calls it with the pool's app client: the user is UNCONFIRMED until their code.
    const client = await admin.send(new CreateUserPoolClientCommand({ UserPoolId: userPoolId, ClientName: 'web' }));
    await admin.send(new SignUpCommand({ ClientId: client.UserPoolClient!.ClientId!, Username: 'signed-up@example.com', Password: 'Sign-up-pass-1', UserAttributes: [{ Name: 'email', Value: 'signed-up@example.com' }] }));
    expect(await auth.getUser('signed-up@example.com')).to.deep.include({ status: 'UNCONFIRMED', roles: [] });
    await auth.confirmUser('signed-up@example.com');
    expect(await auth.getUser('signed-up@example.com')).to.deep.include({ status: 'CONFIRMED' });
    const twice = await auth.confirmUser('signed-up@example.com').catch((e: unknown) => e);
    expect(twice).to.be.instanceOf(NothingToConfirmError).with.property('code', 'FW_ERR_AUTH_NOTHING_TO_CONFIRM');
    expect(twice).to.include({ username: 'signed-up@example.com', status: 'CONFIRMED' });
    await auth.createUser({ username: 'created@example.com', temporaryPassword: 'Temp-pass-123' });
    expect(await auth.confirmUser('created@example.com').catch((e: unknown) => e)).to.be.instanceOf(NothingToConfirmError).with.property('status', 'FORCE_CHANGE_PASSWORD');
  });

  it('answers an unknown user with UserNotFoundError (and getUser with undefined)', async () => {
    expect(await auth.getUser('nobody@example.com')).to.equal(undefined);
    for (const call of [() => auth.disableUser('nobody@example.com'), () => auth.deleteUser('nobody@example.com'), () => auth.setRoles('nobody@example.com', ['member'])]) {
      expect(await call().catch((e: unknown) => e)).to.be.instanceOf(UserNotFoundError).with.property('code', 'FW_ERR_AUTH_USER_NOT_FOUND');
    }
  });

  it('lists users with their roles', async () => {
    const page = await auth.listUsers({ limit: 60 });
    const ada = page.users.find((u) => u.username === 'ada@example.com');
    expect(ada).to.deep.include({ roles: ['member'], email: 'ada@example.com' });
  });

  it('refuses bad input before calling Cognito', async () => {
    const bad = [
      () => auth.createUser({ username: 'has space', temporaryPassword: 'Temp-pass-123' }),
      () => auth.createUser({ username: 'both', temporaryPassword: 'Temp-pass-123', invite: true } as never),
      () => auth.createUser({ username: 'neither' } as never),
      () => auth.createUser({ username: 'noemail', invite: true }),
      () => auth.createUser({ username: 'badtenant@example.com', invite: true, tenant: 'acme/../globex' }),
      () => auth.createUser({ username: 'emptytenant@example.com', invite: true, tenant: '' }),
      () => auth.listUsers({ limit: 0 }),
      () => auth.listUsers({ limit: 61 }),
      () => auth.confirmUser('has space'),
    ];
    for (const call of bad) expect(await call().catch((e: unknown) => e)).to.be.instanceOf(InvalidUserInputError).with.property('code', 'FW_ERR_AUTH_INVALID_INPUT');
  });
});

// cognito-local answers ListUsers with every user at once (no Limit, no PaginationToken), has no
// AdminUserGlobalSignOut and no pool domain, and answers AdminUpdateUserAttributes and AdminConfirmSignUp for an
// unknown user with NotAuthorizedException (Cognito: UserNotFoundException); these are checked against SDK mocks.
describe('service.auth on Cognito, where cognito-local falls short (SDK mocks)', () => {
  const env = { FW_AUTH_USER_POOL_ID: 'eu-west-1_Pool', FW_AUTH_ROLES: 'member', FW_AUTH_AUDIENCE: 'web-id,jobs-id', FW_AUTH_RESOURCE_SERVER: 'shop' };
  let cognito: ReturnType<typeof mockClient<CognitoIdentityProviderClient>>;
  beforeEach(() => {
    cognito = mockClient(CognitoIdentityProviderClient);
  });
  afterEach(() => cognito.restore());

  it('pages through users with Limit and an opaque cursor', async () => {
    const user = (name: string) => ({ Username: name, Attributes: [{ Name: 'sub', Value: `sub-${name}` }] });
    cognito.onAnyCommand().resolves({});
    cognito.on(ListUsersCommand).callsFake((input: { Limit?: number; PaginationToken?: string }) => {
      expect(input.Limit).to.equal(2);
      return input.PaginationToken === 'page-2' ? { Users: [user('c')] } : { Users: [user('a'), user('b')], PaginationToken: 'page-2' };
    });
    const auth = createAuthService({ env });
    const first = await auth.listUsers({ limit: 2 });
    expect(first.users.map((u) => u.username)).to.deep.equal(['a', 'b']);
    expect(first.nextCursor).to.be.a('string');
    const second = await auth.listUsers({ limit: 2, cursor: first.nextCursor! });
    expect(second.users.map((u) => u.username)).to.deep.equal(['c']);
    expect(second.nextCursor).to.equal(undefined);
  });

  it('signOutEverywhere is AdminUserGlobalSignOut on the pool', async () => {
    cognito.on(AdminUserGlobalSignOutCommand).resolves({});
    await createAuthService({ env }).signOutEverywhere('ada@example.com');
    expect(cognito.commandCalls(AdminUserGlobalSignOutCommand).map((c) => c.args[0].input)).to.deep.equal([{ UserPoolId: 'eu-west-1_Pool', Username: 'ada@example.com' }]);
  });

  it('confirmUser of an unknown user is UserNotFoundError (Cognito\'s UserNotFoundException; cognito-local answers NotAuthorizedException)', async () => {
    cognito.on(AdminConfirmSignUpCommand).rejects(Object.assign(new Error('User does not exist.'), { name: 'UserNotFoundException' }));
    expect(await createAuthService({ env }).confirmUser('nobody@example.com').catch((e: unknown) => e)).to.be.instanceOf(UserNotFoundError).with.property('username', 'nobody@example.com');
    expect(cognito.commandCalls(AdminConfirmSignUpCommand).map((c) => c.args[0].input)).to.deep.equal([{ UserPoolId: 'eu-west-1_Pool', Username: 'nobody@example.com' }]);
  });

  it('setTenant of an unknown user is UserNotFoundError (Cognito\'s UserNotFoundException)', async () => {
    const notFound = Object.assign(new Error('User does not exist.'), { name: 'UserNotFoundException' });
    cognito.on(AdminUpdateUserAttributesCommand).rejects(notFound);
    cognito.on(AdminDeleteUserAttributesCommand).rejects(notFound);
    const auth = createAuthService({ env });
    for (const tenant of ['acme', undefined]) {
      expect(await auth.setTenant('nobody@example.com', tenant).catch((e: unknown) => e)).to.be.instanceOf(UserNotFoundError).with.property('code', 'FW_ERR_AUTH_USER_NOT_FOUND');
    }
    expect(cognito.commandCalls(AdminUpdateUserAttributesCommand).map((c) => c.args[0].input)).to.deep.equal([{ UserPoolId: 'eu-west-1_Pool', Username: 'nobody@example.com', UserAttributes: [{ Name: 'custom:tenant_id', Value: 'acme' }] }]);
    expect(cognito.commandCalls(AdminDeleteUserAttributesCommand).map((c) => c.args[0].input)).to.deep.equal([{ UserPoolId: 'eu-west-1_Pool', Username: 'nobody@example.com', UserAttributeNames: ['custom:tenant_id'] }]);
  });

  it('machineToken finds the client by name, takes its secret from DescribeUserPoolClient and posts to the pool domain', async () => {
    cognito.on(DescribeUserPoolClientCommand, { ClientId: 'web-id' }).resolves({ UserPoolClient: { ClientId: 'web-id', ClientName: 'web', AllowedOAuthFlows: ['code'] } });
    cognito.on(DescribeUserPoolClientCommand, { ClientId: 'jobs-id' }).resolves({ UserPoolClient: { ClientId: 'jobs-id', ClientName: 'jobs', ClientSecret: 's3cret', AllowedOAuthFlows: ['client_credentials'] } });
    cognito.on(DescribeUserPoolCommand).resolves({ UserPool: { Domain: 'shop-dev-abc' } });
    const requests: { url: string; init: RequestInit }[] = [];
    const fetch = (async (url: string, init: RequestInit) => {
      requests.push({ url, init });
      return new Response(JSON.stringify({ access_token: `token-${requests.length}`, expires_in: 3600, token_type: 'Bearer' }), { status: 200, headers: { 'content-type': 'application/json' } });
    }) as unknown as typeof globalThis.fetch;
    const auth = createAuthService({ env, machineTokens: { fetch } });
    expect(await auth.machineToken('jobs', ['orders:read'])).to.equal('token-1');
    expect(await auth.machineToken('jobs', ['orders:read'])).to.equal('token-1');
    expect(requests).to.have.length(1);
    expect(requests[0]!.url).to.equal('https://shop-dev-abc.auth.eu-west-1.amazoncognito.com/oauth2/token');
    expect((requests[0]!.init.headers as Record<string, string>).authorization).to.equal(`Basic ${Buffer.from('jobs-id:s3cret').toString('base64')}`);
    expect(new URLSearchParams(requests[0]!.init.body as string).get('scope')).to.equal('shop/orders:read');
    // The client's description is read once per container, not per token.
    await auth.machineToken('jobs');
    expect(cognito.commandCalls(DescribeUserPoolClientCommand, { ClientId: 'jobs-id' })).to.have.length(1);
    expect(await auth.machineToken('web').catch((e: unknown) => e)).to.be.instanceOf(UnknownAppClientError);
    expect(await auth.machineToken('nope').catch((e: unknown) => e)).to.be.instanceOf(UnknownAppClientError);
  });
});
