import type { CommandSpec, OptionSpec } from '../cli/command-spec.js';

/**
 * Every `fw` command, one file each under `commands/`, and its options: the one table `fw --help`, `fw <command>
 * --help` and the checking of option names come from. Commands are loaded on use so `fw --help` stays fast and
 * `fw dev` never loads CDK.
 */
export interface CommandModule {
  /** Runs the command with its own arguments (after the command name); resolves to the exit code. */
  run(argv: string[]): Promise<number>;
}

export interface CommandEntry extends CommandSpec {
  readonly load: () => Promise<CommandModule>;
}

const stage = (what: string): OptionSpec => ({ name: 'stage', type: 'string', valueName: 'stage', default: 'dev', description: what });
const noChecks: OptionSpec = { name: 'no-checks', type: 'boolean', description: "Skip cdk-nag's AwsSolutions checks during synthesis (default: checks run)" };
const validation: OptionSpec = { name: 'validation', type: 'boolean', description: "Also run aws-cdk-lib's built-in CloudFormation validation (default: off; cdk-nag is the gate)" };

const ENTRIES: readonly CommandEntry[] = [
  {
    name: 'init',
    summary: 'Create a project from a template and install its dependencies',
    positionals: '<project_name>',
    options: [
      { name: 'template', short: 't', type: 'string', valueName: 'template', default: 'asked; api with --yes', description: 'api, api-database, api-queue, api-storage or fullstack' },
      { name: 'yes', short: 'y', type: 'boolean', description: 'Ask nothing: take the default answers' },
      { name: 'registry', type: 'string', valueName: 'url', default: "npm's configured registry", description: 'Registry of the @framework packages, written to the project\'s .npmrc' },
    ],
    examples: ['fw init my-app --template api-database --yes'],
    load: () => import('./init.js'),
  },
  {
    name: 'dev',
    summary: 'Run every route, queue, cron and function locally',
    options: [
      { name: 'port', short: 'p', type: 'string', valueName: 'port', default: '3000', description: 'Port to listen on; 0 picks a free one' },
      { name: 'host', type: 'string', valueName: 'host', default: '127.0.0.1', description: 'Address to listen on (0.0.0.0 for every interface)' },
      stage('Stage whose configuration is served'),
      {
        name: 'engine',
        type: 'string',
        valueName: 'intent=kind',
        multiple: true,
        default: 'the first available of native, embedded; or FW_DEV_ENGINES',
        description: 'Local engine of an intent, e.g. databases=embedded (repeatable, or comma-separated)',
      },
      { name: 'quiet', short: 'q', type: 'boolean', description: 'No line per request, queue batch and cron run (default: printed)' },
      {
        name: 'inspect',
        type: 'string',
        valueName: '[host:]port',
        optionalValue: '9229',
        default: 'off; 9229 when given without a port',
        description: 'Let a debugger attach to the handlers (breakpoints in the TypeScript sources)',
      },
      { name: 'no-typecheck', type: 'boolean', description: "Do not run the project's TypeScript checker beside the server (default: type errors are printed)" },
    ],
    examples: ['fw dev --port 3001', 'fw dev --engine databases=embedded'],
    load: () => import('./dev.js'),
  },
  {
    name: 'g',
    summary: 'Generate a route file',
    subcommands: [{ usage: 'route "<path>"', description: 'src/routes/<path>/<method>.ts (quote paths with brackets)' }],
    options: [
      { name: 'method', short: 'm', type: 'string', valueName: 'method', description: 'HTTP method of the route (required): get, post, put, patch, delete, ...' },
      { name: 'scopes', short: 's', aliases: ['scope'], type: 'string', valueName: 'scope,...', multiple: true, default: 'public', description: 'Scopes the route requires (declared in config/security.ts)' },
      stage('Stage whose configuration is read'),
    ],
    examples: ['fw g route "tasks/[id]" -m put --scopes tasks:write'],
    load: () => import('./generate.js'),
  },
  {
    name: 'openapi',
    summary: "Write the OpenAPI 3.1 document of the routes and their schemas",
    options: [
      stage('Stage whose configuration is read'),
      { name: 'out', short: 'o', type: 'string', valueName: 'file', default: 'stdout', description: 'File to write the document to' },
      { name: 'auth-url', type: 'string', valueName: 'url', default: "the stage's Cognito domain, else fw dev's issuer", description: 'Origin of the OAuth 2.0 endpoints (/oauth2/authorize, /oauth2/token)' },
      { name: 'server-url', type: 'string', valueName: 'url', default: 'none (relative)', description: "The API's URL, written as the document's server" },
    ],
    examples: ['fw openapi --out openapi.json', 'fw openapi --stage prod --auth-url https://auth.example.com --server-url https://api.example.com'],
    load: () => import('./openapi.js'),
  },
  {
    name: 'gen',
    summary: 'Generate the typed HTTP client of the routes',
    subcommands: [{ usage: 'client', description: 'src/client.gen.ts: createClient({ baseUrl, token }), a method per route file (fw dev keeps it current)' }],
    options: [stage('Stage whose configuration is read')],
    examples: ['fw gen client'],
    load: () => import('./gen.js'),
  },
  {
    name: 'types',
    summary: "Write the app's types (.fw/types/app.d.ts): queue, function, bucket and database ids and the declared scopes",
    options: [stage('Stage whose configuration is read')],
    examples: ['fw types && tsc --noEmit'],
    load: () => import('./types.js'),
  },
  {
    name: 'synth',
    summary: 'Write the cloud assembly of a stage',
    options: [stage('Stage to synthesize'), { name: 'out', type: 'string', valueName: 'dir', default: 'cdk.out', description: 'Cloud assembly folder' }, noChecks, validation],
    load: () => import('./synth.js'),
  },
  {
    name: 'deploy',
    summary: 'Deploy a stage (dev unless --stage)',
    options: [stage('Stage to deploy'), { name: 'bootstrap', type: 'boolean', description: 'Prepare the account and region for CDK deployments first' }, noChecks, validation],
    load: () => import('./deploy.js'),
  },
  {
    name: 'diff',
    summary: 'Show what a deploy would change',
    options: [stage('Stage to compare with'), noChecks, validation],
    load: () => import('./diff.js'),
  },
  {
    name: 'destroy',
    summary: 'Delete a deployed stage',
    options: [stage('Stage to delete'), { name: 'yes', short: 'y', type: 'boolean', description: 'Do not ask for confirmation (needed without a terminal)' }],
    load: () => import('./destroy.js'),
  },
  {
    name: 'migrate',
    summary: 'Apply, list, create or roll back database migrations',
    subcommands: [
      { usage: 'apply', description: 'Apply pending migrations to the database of the running fw dev (the default; also: up)' },
      { usage: 'status', description: 'List applied, pending, changed and missing migrations' },
      { usage: 'create <name>', description: 'Write the next numbered migration file' },
      { usage: 'down', description: 'Roll back the newest migrations (local only)' },
    ],
    options: [
      { name: 'db', type: 'string', valueName: 'id', default: 'the only database', description: 'Database to work on when the app has several' },
      { name: 'steps', type: 'string', valueName: 'n', default: '1', description: 'How many migrations fw migrate down rolls back' },
      { name: 'stage', type: 'string', valueName: 'stage', default: 'the local fw dev', description: 'Apply or list on a deployed stage, through its migration function' },
    ],
    examples: ['fw migrate create add_due_date', 'fw migrate status --stage prod'],
    load: () => import('./migrate.js'),
  },
  {
    name: 'tenancy',
    summary: 'Check that PostgreSQL row-level security isolates tenants (@framework-pro/tenancy)',
    subcommands: [
      { usage: 'check', description: 'Fail when a table with tenant_id has no policy, RLS not enabled or not forced, or the app role can bypass RLS' },
    ],
    options: [{ name: 'db', type: 'string', valueName: 'id', default: 'the only database', description: 'Database to check when the app has several' }],
    examples: ['fw tenancy check'],
    load: () => import('./tenancy.js'),
  },
  {
    name: 'auth',
    summary: 'Manage the app\'s users; list who can reach each route',
    subcommands: [
      { usage: 'users [list]', description: 'List the users of fw dev\'s issuer (or of a stage\'s user pool with --stage)' },
      { usage: 'users create <username>', description: 'Create a user: --password <temporary> or --invite, with --roles and --email' },
      { usage: 'users set-roles <username>', description: 'Make the user\'s roles exactly --roles (declared in config/security.ts)' },
      { usage: 'users set-tenant <username>', description: 'Move the user into tenant --tenant ("" for none); their tokens carry it from their next sign-in or refresh' },
      { usage: 'users confirm <username>', description: 'Confirm a user who signed up and has not entered their verification code (AdminConfirmSignUp)' },
      { usage: 'users disable|enable|delete <username>', description: 'Disable (no sign-in, no refresh), enable again, or delete a user' },
      { usage: 'users sign-out <username>', description: 'Revoke every refresh token of the user (global sign-out)' },
      { usage: 'routes', description: 'Every route with its scopes and the roles and machine clients that reach it; public routes flagged' },
    ],
    options: [
      { name: 'roles', aliases: ['role'], type: 'string', valueName: 'role,...', default: 'none', description: 'Roles of the user (create, set-roles)' },
      { name: 'tenant', type: 'string', valueName: 'tenant', default: 'none', description: 'The user\'s tenant, custom:tenant_id in their tokens (create, set-tenant)' },
      { name: 'email', type: 'string', valueName: 'address', default: 'the username when it is an email address', description: 'Email of a new user' },
      { name: 'password', type: 'string', valueName: 'password', description: 'Temporary password of a new user (no message is sent)' },
      { name: 'invite', type: 'boolean', description: 'Let the identity provider generate the password and invite the user by email (fw dev prints it)' },
      { name: 'stage', type: 'string', valueName: 'stage', default: 'the local fw dev', description: 'Work on a deployed stage\'s user pool (users), or read that stage\'s config (routes)' },
    ],
    examples: ['fw auth users create ada@example.com --roles admin --password "Temp-pass-123"', 'fw auth users set-roles mia --roles member', 'fw auth routes'],
    load: () => import('./auth.js'),
  },
  {
    name: 'license',
    summary: 'Show what the @framework-pro license key (FW_LICENSE_KEY, environment or .env) grants',
    options: [],
    examples: ['fw license'],
    load: () => import('./license.js'),
  },
];

export const COMMANDS: Readonly<Record<string, CommandEntry>> = Object.fromEntries(ENTRIES.map((entry) => [entry.name, entry]));
