import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CognitoUserAdmin, type CognitoUserAdminOptions, type UserAdmin } from '@framework/auth';
import { stackName, type AppDefinition } from '@framework/core';
import { loadApp } from '../app-loader/index.js';
import { formatRouteAccess, formatUsers, routeAccess } from '../auth/index.js';
import { LocalUserAdmin } from '../dev/auth/local-user-admin.js';
import { UserStore } from '../dev/auth/user-store.js';
import { readStateFile } from '../dev/state-file.js';
import { AuthCommandError } from '../errors.js';

const USAGE = [
  'fw auth users [list]                                          the dev issuer\'s users (.fw/dev/auth/users.json)',
  'fw auth users create <username> [--roles a,b] [--email e] [--tenant t] (--password <temporary> | --invite)',
  'fw auth users set-roles <username> --roles a,b                 (--roles "" removes every role)',
  'fw auth users set-tenant <username> --tenant t                 (--tenant "" takes the user out of any tenant)',
  'fw auth users confirm <username>                              a user who signed up and has not entered their code',
  'fw auth users disable|enable|delete|sign-out <username>',
  'fw auth users ... --stage <stage>                             the same on a deployed stage\'s user pool',
  'fw auth routes [--stage <stage>]                              every route, its scopes, the roles and clients that reach it',
].join('\n');

interface AuthArguments {
  readonly area: 'users' | 'routes';
  readonly action: 'list' | 'create' | 'set-roles' | 'set-tenant' | 'confirm' | 'disable' | 'enable' | 'delete' | 'sign-out';
  readonly username?: string;
  readonly stage?: string;
  readonly roles?: string[];
  readonly email?: string;
  /** The user's tenant (`custom:tenant_id` in their tokens); "" with set-tenant: none. */
  readonly tenant?: string;
  readonly password?: string;
  readonly invite: boolean;
}

function bad(message: string): AuthCommandError {
  return new AuthCommandError('FW_ERR_AUTH_COMMAND_BAD_ARGUMENT', `${message}\nUsage:\n${USAGE}`);
}

const USER_ACTIONS = ['list', 'create', 'set-roles', 'set-tenant', 'confirm', 'disable', 'enable', 'delete', 'sign-out'] as const;

export function parseAuthArguments(argv: readonly string[]): AuthArguments {
  const positional: string[] = [];
  const options: { stage?: string; roles?: string[]; email?: string; tenant?: string; password?: string; invite: boolean } = { invite: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || (v.startsWith('--') && inline === undefined)) throw bad(`${flag} needs a value.`);
      return v;
    };
    switch (flag) {
      case '--stage':
        options.stage = value();
        break;
      case '--roles':
      case '--role':
        options.roles = value().split(',').map((r) => r.trim()).filter(Boolean);
        break;
      case '--email':
        options.email = value();
        break;
      case '--tenant':
        options.tenant = value();
        break;
      case '--password':
        options.password = value();
        break;
      case '--invite':
        options.invite = true;
        break;
      default:
        if (arg.startsWith('-')) throw bad(`Unknown option ${arg}.`);
        positional.push(arg);
    }
  }
  const [area, sub, ...rest] = positional;
  if (area === 'routes') {
    if (sub !== undefined) throw bad(`Unexpected argument "${sub}".`);
    return { area, action: 'list', invite: false, ...(options.stage ? { stage: options.stage } : {}) };
  }
  if (area !== 'users') throw bad(area === undefined ? 'Say what to show or change: users or routes.' : `Unknown subcommand "${area}".`);
  const action = (sub ?? 'list') as AuthArguments['action'];
  if (!USER_ACTIONS.includes(action)) throw bad(`Unknown subcommand "users ${sub}".`);
  if (action === 'list') {
    if (rest.length) throw bad(`Unexpected argument "${rest[0]}".`);
  } else if (rest.length !== 1) {
    throw bad(`fw auth users ${action} needs one username, e.g. fw auth users ${action} ada@example.com.`);
  }
  if (action === 'set-roles' && options.roles === undefined) throw bad('fw auth users set-roles needs --roles (comma-separated; "" for none).');
  if (action === 'create' && (options.password === undefined) === !options.invite) throw bad('fw auth users create needs exactly one of --password <temporary password> and --invite.');
  if (action === 'set-tenant' && options.tenant === undefined) throw bad('fw auth users set-tenant needs --tenant (a tenant id; "" for none).');
  if (options.tenant !== undefined && action !== 'create' && action !== 'set-tenant') throw bad('--tenant goes with create (fw auth users create ... --tenant acme) or set-tenant (fw auth users set-tenant <username> --tenant acme).');
  return { area, action, ...(rest[0] !== undefined ? { username: rest[0] } : {}), ...options };
}

export interface AuthCommandOptions {
  /** Project folder. @default process.cwd() */
  readonly cwd?: string;
  /** Where lines go. @default process.stdout */
  readonly out?: (line: string) => void;
  /** The user pool of a deployed stage. @default - the stack's `UserPoolId` output, read with CloudFormation */
  readonly userPoolOf?: (app: AppDefinition) => Promise<string | undefined>;
  /** SDK client options for `--stage` (an emulator's endpoint in tests). @default - the region of the pool */
  readonly cognito?: CognitoUserAdminOptions['clientConfig'];
}

/**
 * `fw auth users` runs `service.auth`'s user calls: on the dev issuer's user store (the file `fw dev` reads on every
 * sign-in, so a change applies to a running `fw dev` at once), or with `--stage` on the deployed pool through the
 * Cognito implementation functions use. `fw auth routes` prints who can reach each route.
 */
export async function runAuth(argv: readonly string[], options: AuthCommandOptions = {}): Promise<number> {
  const rootDir = path.resolve(options.cwd ?? process.cwd());
  const out = options.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const args = parseAuthArguments(argv);
  const dataDir = path.join(rootDir, '.fw');
  const stage = args.stage ?? readStateFile(dataDir)?.stage ?? 'dev';
  const app = await loadApp(rootDir, stage);
  if (args.area === 'routes') {
    for (const line of formatRouteAccess(routeAccess(app, await routeScopes(app)))) out(line);
    return 0;
  }
  const declaredRoles = Object.keys(app.config.security.roles ?? {});
  let admin: UserAdmin;
  if (args.stage !== undefined) {
    const userPoolId = await (options.userPoolOf ?? deployedUserPool)(app);
    if (!userPoolId) throw new AuthCommandError('FW_ERR_AUTH_COMMAND_NO_POOL', `stage ${app.stage} has no user pool: stack ${stackName(app.project, app.stage)} has no UserPoolId output. Deploy it with fw deploy --stage ${app.stage} (with auth: {} in infrastructure), or drop --stage for the local users of fw dev.`);
    admin = new CognitoUserAdmin({ userPoolId, declaredRoles, ...(options.cognito ? { clientConfig: options.cognito } : {}) });
  } else {
    // The stage config's seeded users exist as declared, as when fw dev starts.
    const store = UserStore.open(dataDir);
    await store.seed(app.config.auth?.users ?? []);
    admin = new LocalUserAdmin(store, {
      declaredRoles: () => declaredRoles,
      invitation: ({ username, tenant, temporaryPassword }) => out(`invited ${username}${tenant !== undefined ? ` to tenant ${tenant}` : ''}: fw dev sends no mail; the temporary password is ${temporaryPassword}`),
    });
  }
  const where = args.stage !== undefined ? `stage ${app.stage}` : 'fw dev';
  const username = args.username as string;
  switch (args.action) {
    case 'list': {
      const users = [];
      let cursor: string | undefined;
      do {
        const page = await admin.listUsers(cursor ? { cursor } : {});
        users.push(...page.users);
        cursor = page.nextCursor;
      } while (cursor);
      for (const line of formatUsers(users)) out(line);
      return 0;
    }
    case 'create': {
      const common = { username, roles: args.roles ?? [], ...(args.email ? { email: args.email } : {}), ...(args.tenant !== undefined ? { tenant: args.tenant } : {}) };
      const user = await admin.createUser(args.invite ? { ...common, invite: true } : { ...common, temporaryPassword: args.password as string });
      out(`created ${user.username} (${where}) with roles ${user.roles.join(', ') || '(none)'}${user.tenant !== undefined ? ` in tenant ${user.tenant}` : ''}`);
      return 0;
    }
    case 'set-roles':
      await admin.setRoles(username, args.roles ?? []);
      out(`${username} (${where}) now has roles ${(args.roles ?? []).join(', ') || '(none)'}`);
      return 0;
    case 'set-tenant': {
      const tenant = args.tenant === '' ? undefined : args.tenant;
      await admin.setTenant(username, tenant);
      out(`${username} (${where}) is now ${tenant !== undefined ? `in tenant ${tenant}` : 'in no tenant'}: their tokens carry it from their next sign-in or refresh`);
      return 0;
    }
    case 'confirm':
      await admin.confirmUser(username);
      out(`confirmed ${username} (${where}): they can sign in (their email address stays unverified)`);
      return 0;
    case 'disable':
      await admin.disableUser(username);
      out(`disabled ${username} (${where}): they can no longer sign in or refresh tokens`);
      return 0;
    case 'enable':
      await admin.enableUser(username);
      out(`enabled ${username} (${where})`);
      return 0;
    case 'delete':
      await admin.deleteUser(username);
      out(`deleted ${username} (${where})`);
      return 0;
    case 'sign-out':
      await admin.signOutEverywhere(username);
      out(`signed ${username} out everywhere (${where}): their refresh tokens are revoked`);
      return 0;
  }
}

/** The scopes each route's handler declares, read from the bundles as `fw synth` reads them. */
async function routeScopes(app: AppDefinition): Promise<Map<string, readonly string[] | undefined>> {
  const { bundleApp, readHandlerInfo } = await import('@framework/infra');
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-auth-routes-'));
  try {
    const info = readHandlerInfo(app, bundleApp(app, { outDir, minify: false, sourcemap: false }));
    return new Map(app.routes.map((r) => [r.functionName, info.has(r.functionName) ? info.get(r.functionName)?.scopes ?? [] : undefined]));
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}

/** The `UserPoolId` output of the stage's stack. */
async function deployedUserPool(app: AppDefinition): Promise<string | undefined> {
  const { CloudFormationClient, DescribeStacksCommand } = await import('@aws-sdk/client-cloudformation');
  const client = new CloudFormationClient({ region: app.region });
  try {
    const { Stacks } = await client.send(new DescribeStacksCommand({ StackName: stackName(app.project, app.stage) }));
    return Stacks?.[0]?.Outputs?.find((o) => o.OutputKey === 'UserPoolId')?.OutputValue;
  } catch (error) {
    if ((error as { name?: string }).name === 'ValidationError') return undefined;
    throw error;
  } finally {
    client.destroy();
  }
}

/** `fw auth` entry point. */
export async function run(argv: string[]): Promise<number> {
  return runAuth(argv);
}
