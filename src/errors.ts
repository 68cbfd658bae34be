/**
 * A mistake in `FrameworkApp`'s options, found while `.projenrc.ts` runs: the message names the option and the fix.
 * `code` is stable (`FW_ERR_PROJEN_<PROBLEM>`) so tools can match on it.
 */
export class FrameworkAppError extends Error {
  /** Stable error code, e.g. `FW_ERR_PROJEN_INVALID_OPTION`. */
  public readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.name = 'FrameworkAppError';
    this.code = code;
  }
}

/**
 * Every code `FrameworkApp` throws, with its cause: the shape of every package's catalog. The README's error table
 * lists the same codes, and a test keeps both in step, both ways.
 */
export const PROJEN_ERROR_CODES = {
  FW_ERR_PROJEN_INVALID_OPTION: 'An option has a wrong value (project name, region, stage name, account, a schedule without exactly one of cron/rate, registry URL).',
  FW_ERR_PROJEN_DUPLICATE_ID: 'An intent, scope, app client, role or stage is declared twice (maybe once by the template).',
  FW_ERR_PROJEN_UNKNOWN_TEMPLATE: '`template` is not a `FrameworkTemplate`.',
} as const;

export type ProjenErrorCode = keyof typeof PROJEN_ERROR_CODES;

/** Short names of the codes, as `FrameworkApp` throws them. */
export const ERROR_CODES = {
  invalidOption: 'FW_ERR_PROJEN_INVALID_OPTION',
  duplicateId: 'FW_ERR_PROJEN_DUPLICATE_ID',
  unknownTemplate: 'FW_ERR_PROJEN_UNKNOWN_TEMPLATE',
} as const satisfies Readonly<Record<string, ProjenErrorCode>>;
