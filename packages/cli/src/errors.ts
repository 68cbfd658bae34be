import { FrameworkError } from '@framework/core/names';

/**
 * Errors of `fw` that users can hit. Each has a stable code (the README's error table lists code, cause and fix);
 * `fw` prints the message of any of them (`isFrameworkError`) without a stack.
 * Other commands add their families below.
 */

/**
 * The command line itself is wrong (unknown command or option, missing value): `fw` prints the message, which names
 * the problem, suggests the nearest known name and points at `--help`, and exits with code 2.
 */
export class UsageError extends FrameworkError {
  public static readonly CODES = {
    FW_ERR_USAGE: 'The command line names an unknown command or option, or an option lacks its value (or has one it does not take).',
  } as const;

  constructor(message: string) {
    super('FW_ERR_USAGE', message);
  }
}

/** `fw dev` could not start or serve: the message says what to change. */
export class DevServerError extends FrameworkError {
  public static readonly CODES = {
    FW_ERR_DEV_NO_CONFIG: 'No fw.config.ts in the folder fw dev runs in.',
    FW_ERR_DEV_CONFIG_LOAD: 'fw.config.ts failed to compile or threw while loading.',
    FW_ERR_DEV_BAD_ARGUMENT: 'A command-line option of fw dev has a bad value.',
    FW_ERR_DEV_PORT_IN_USE: 'The port fw dev would serve on is taken by another process.',
    FW_ERR_DEV_NO_ENGINE: 'No local engine is available for an intent the app uses (or the one named is not).',
    FW_ERR_DEV_ENGINE_START: 'A local engine failed to start (port taken, data folder unreadable, binary failing).',
    FW_ERR_DEV_BILLING_NOT_INSTALLED: 'The app declares billing (and no STRIPE_SECRET_KEY), but @framework-pro/billing, whose local payment provider fw dev runs, is not among its dependencies.',
    FW_ERR_DEV_CLOCK_RUNAWAY: 'A manual clock (tests) fired its cap of one-off timers in one advance or drain: work that never ends.',
  } as const;

  constructor(code: keyof typeof DevServerError.CODES, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** `fw g route` or `fw gen client` refused to generate: the message says why and what to pass instead. */
export class GenerateError extends FrameworkError {
  public static readonly CODES = {
    FW_ERR_GENERATE_BAD_ARGUMENT: 'An argument of fw g is missing or malformed (kind, path, method, scope).',
    FW_ERR_GENERATE_EXISTS: 'The route file already exists; fw g never overwrites.',
    FW_ERR_GENERATE_UNDECLARED_SCOPE: 'A scope passed with --scopes is not declared in config/security.ts.',
    FW_ERR_GENERATE_CLIENT_NAME_CLASH: 'Two route folders or files would get the same property name in the generated client.',
    FW_ERR_GENERATE_CLIENT_FILE_EXISTS: 'src/client.gen.ts exists and was not written by fw gen client; fw gen client does not overwrite it.',
  } as const;

  constructor(code: keyof typeof GenerateError.CODES, message: string) {
    super(code, message);
  }
}

/** `fw migrate` could not tell what to do: the message says what to pass. */
export class MigrateCommandError extends FrameworkError {
  public static readonly CODES = {
    FW_ERR_MIGRATE_BAD_ARGUMENT: 'An argument of fw migrate is missing or malformed (subcommand, name, --stage, --db, --steps).',
    FW_ERR_MIGRATE_NO_DATABASE: 'The app declares no database, or several and --db does not name one of them.',
  } as const;

  constructor(code: keyof typeof MigrateCommandError.CODES, message: string) {
    super(code, message);
  }
}

/** `fw tenancy` could not run its check: the message says what to do. */
export class TenancyCommandError extends FrameworkError {
  public static readonly CODES = {
    FW_ERR_TENANCY_COMMAND_BAD_ARGUMENT: 'An argument of fw tenancy is missing or malformed (subcommand, --db).',
    FW_ERR_TENANCY_COMMAND_NOT_INSTALLED: 'fw tenancy check runs the project\'s own @framework-pro/tenancy, which the project does not depend on.',
  } as const;

  constructor(code: keyof typeof TenancyCommandError.CODES, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** `fw auth` could not tell what to do, or the stage it names has no user pool: the message says what to pass. */
export class AuthCommandError extends FrameworkError {
  public static readonly CODES = {
    FW_ERR_AUTH_COMMAND_BAD_ARGUMENT: 'An argument of fw auth is missing or malformed (subcommand, username, --roles, --password / --invite).',
    FW_ERR_AUTH_COMMAND_NO_POOL: 'fw auth users --stage names a stage whose stack has no user pool (not deployed, or no auth intent).',
  } as const;

  constructor(code: keyof typeof AuthCommandError.CODES, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** `fw init` refused to create the project, or creating it failed: the message says what to change. */
export class InitError extends FrameworkError {
  public static readonly CODES = {
    FW_ERR_INIT_BAD_ARGUMENT: 'The project name is missing or not a valid project name, or an option is unknown or malformed.',
    FW_ERR_INIT_UNKNOWN_TEMPLATE: 'The --template value is not one of the five templates.',
    FW_ERR_INIT_TARGET_NOT_EMPTY: 'The project folder already exists and is not empty; fw init never writes into one.',
    FW_ERR_INIT_FAILED: 'Creating the project (projen new, dependency install) failed; its output above says why.',
  } as const;

  constructor(code: keyof typeof InitError.CODES, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** `fw synth`, `fw deploy`, `fw diff` and `fw destroy` could not proceed: the message says what to do. */
export class CloudCommandError extends FrameworkError {
  public static readonly CODES = {
    FW_ERR_CLOUD_BAD_ARGUMENT: 'An option of fw synth/deploy/diff/destroy is unknown or has a bad value.',
    FW_ERR_CLOUD_NO_CONFIG: 'No fw.config.ts in the folder the command runs in.',
    FW_ERR_CLOUD_BAD_CDK_JSON: 'cdk.json beside fw.config.ts is not valid JSON, or its "context" is not an object.',
    FW_ERR_CLOUD_NO_CREDENTIALS: 'No cloud credentials are configured (deploy, diff and destroy need them; synth does not).',
    FW_ERR_CLOUD_NOT_BOOTSTRAPPED: 'The account and region have not been prepared for CDK deployments (bootstrap stack missing).',
    FW_ERR_CLOUD_NOT_CONFIRMED: 'fw destroy was not confirmed (pass --yes when there is no terminal to ask).',
    FW_ERR_CLOUD_FAILED: 'The deployment engine reported a failure (stack events above say which resource and why).',
  } as const;

  constructor(code: keyof typeof CloudCommandError.CODES, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** `fw openapi` could not write the document: the message says what to change. */
export class OpenApiError extends FrameworkError {
  public static readonly CODES = {
    FW_ERR_OPENAPI_ROUTE_LOAD: 'The route files do not compile, or the process reading their schemas failed (a module top level that needs the cloud).',
    FW_ERR_OPENAPI_BAD_ARGUMENT: 'An option of fw openapi has a bad value (--auth-url or --server-url not an http(s) URL, --out not writable).',
  } as const;

  constructor(code: keyof typeof OpenApiError.CODES, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** Every code of `fw`, with its cause: the README's error tables list the same, and a test keeps both in step. */
export const CLI_ERROR_CODES = {
  ...UsageError.CODES,
  ...DevServerError.CODES,
  ...GenerateError.CODES,
  ...MigrateCommandError.CODES,
  ...TenancyCommandError.CODES,
  ...AuthCommandError.CODES,
  ...InitError.CODES,
  ...CloudCommandError.CODES,
  ...OpenApiError.CODES,
} as const;

export type CliErrorCode = keyof typeof CLI_ERROR_CODES;

