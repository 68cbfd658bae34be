/**
 * Errors of @framework/core. Every error a user can hit has a stable `code`; the table in README.md lists each
 * code with its cause and fix, and `test/errors.test.ts` keeps the two in step.
 */

/** Codes of the individual problems a `ConfigError` reports. */
export const CONFIG_PROBLEM_CODES = {
  FW_ERR_CONFIG_INVALID_VALUE: 'A field has a value of the wrong type or outside its allowed range.',
  FW_ERR_CONFIG_MISSING_FIELD: 'A required field is absent.',
  FW_ERR_CONFIG_UNKNOWN_FIELD: 'A field that the config does not define (often a typo).',
  FW_ERR_CONFIG_DUPLICATE_ID: 'Two intents of the same kind share an id.',
  FW_ERR_CONFIG_UNDECLARED_SCOPE: 'An app client or a role names a scope that security.scopes does not declare.',
  FW_ERR_CONFIG_UNDECLARED_ROLE: 'A seeded user (envs.<stage>.auth.users) names a role that security.roles does not declare.',
  FW_ERR_CONFIG_UNKNOWN_STAGE: 'The requested stage has no entry in envs.',
  FW_ERR_CONFIG_RESERVED_WORD: 'A Cognito domain prefix contains "aws", "amazon" or "cognito", which Cognito refuses.',
  FW_ERR_CONFIG_NAME_CLASH: 'Two units map to the same deployed name or environment variable.',
  FW_ERR_ROUTE_NOT_A_METHOD: 'A file under the routes directory is not named after an HTTP method.',
  FW_ERR_ROUTE_BAD_SEGMENT: 'A folder under the routes directory is not a valid path segment.',
  FW_ERR_ROUTE_CONFLICT: 'Two route files map to the same method and path.',
  FW_ERR_INTENT_WITHOUT_FILE: 'A queue, schedule or function intent has no handler file.',
  FW_ERR_FILE_WITHOUT_INTENT: 'A queue consumer or cron file has no intent declaring it.',
  FW_ERR_BAD_FILE_NAME: 'A handler file name cannot become a deployed unit name.',
} as const;

export type ConfigProblemCode = keyof typeof CONFIG_PROBLEM_CODES;

/** One thing wrong with the app's configuration or files. */
export interface ConfigProblem {
  readonly code: ConfigProblemCode;
  /** Where: a dotted config path (`envs.prod.overrides.functions.memorySize`) or a project-relative file path. */
  readonly path: string;
  /** The whole sentence: what was expected, what was found, and how to fix it. */
  readonly message: string;
}

/**
 * Marks every `FrameworkError`, also one made by another copy of this module in the same process (the app's own
 * `node_modules`, a bundle of `fw.config.ts`), where `instanceof` answers false.
 */
const FRAMEWORK_ERROR = Symbol.for('@framework/core.FrameworkError');

/** Base of every error the framework raises on purpose: a stable code, the class name, an optional cause. */
export class FrameworkError extends Error {
  public readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
    Object.defineProperty(this, FRAMEWORK_ERROR, { value: true });
  }
}

/**
 * Whether `error` is one the framework raised on purpose: its message says what to do, so it is shown without a
 * stack and never wrapped. Checks the class (and its mark, for a copy of the class from another module instance),
 * never the code's text.
 */
export function isFrameworkError(error: unknown): error is FrameworkError {
  return error instanceof FrameworkError || (typeof error === 'object' && error !== null && (error as { [FRAMEWORK_ERROR]?: unknown })[FRAMEWORK_ERROR] === true);
}

/**
 * Everything wrong with a configuration, at once. `defineApp` never stops at the first problem: a config with five
 * problems reports all five, each with its path.
 */
export class ConfigError extends FrameworkError {
  public static readonly CODE = 'FW_ERR_CONFIG' satisfies keyof typeof CORE_ERROR_CODES;
  public readonly problems: readonly ConfigProblem[];

  constructor(problems: readonly ConfigProblem[]) {
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    super(
      ConfigError.CODE,
      `Invalid framework configuration (${count}):\n` + problems.map((p) => `  - ${p.path}: ${p.message}`).join('\n'),
    );
    this.problems = problems;
  }
}

/**
 * Every code a `@framework/core` error carries, with its cause: the README's error table lists the same, and a test
 * keeps both in step. The problems inside a `ConfigError` have their own catalog, `CONFIG_PROBLEM_CODES`.
 */
export const CORE_ERROR_CODES = {
  FW_ERR_CONFIG: 'The configuration or the handler files have problems; `problems` lists each (code, path, message).',
  FW_ERR_NAMING: 'A naming function got a project, stage or id that can never be a deployed name.',
} as const;

/** Raised by the naming module for an input that can never become a deployed name (empty, or bad characters). */
export class NamingError extends FrameworkError {
  public static readonly CODE = 'FW_ERR_NAMING' satisfies keyof typeof CORE_ERROR_CODES;
  constructor(message: string) {
    super(NamingError.CODE, message);
  }
}
