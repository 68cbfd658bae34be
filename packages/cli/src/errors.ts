import { FrameworkError } from '@framework/core';

/**
 * Errors of `fw` that users can hit. Each has a stable code (the README's error table lists code, cause and fix);
 * `fw` prints the message of any error whose code starts with `FW_ERR` without a stack.
 * Other commands add their families below.
 */

/** `fw dev` could not start or serve: the message says what to change. */
export class DevServerError extends FrameworkError {
  public static readonly CODES = {
    FW_ERR_DEV_NO_CONFIG: 'No fw.config.ts in the folder fw dev runs in.',
    FW_ERR_DEV_CONFIG_LOAD: 'fw.config.ts failed to compile or threw while loading.',
    FW_ERR_DEV_BAD_ARGUMENT: 'A command-line option of fw dev has a bad value.',
    FW_ERR_DEV_NO_ENGINE: 'No local engine is available for an intent the app uses (or the one named is not).',
    FW_ERR_DEV_ENGINE_START: 'A local engine failed to start (port taken, data folder unreadable, binary failing).',
  } as const;

  constructor(code: keyof typeof DevServerError.CODES, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** `fw g route` refused to generate: the message says why and what to pass instead. */
export class GenerateError extends FrameworkError {
  public static readonly CODES = {
    FW_ERR_GENERATE_BAD_ARGUMENT: 'An argument of fw g is missing or malformed (kind, path, method, scope).',
    FW_ERR_GENERATE_EXISTS: 'The route file already exists; fw g never overwrites.',
    FW_ERR_GENERATE_UNDECLARED_SCOPE: 'A scope passed with --scopes is not declared in config/security.ts.',
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
