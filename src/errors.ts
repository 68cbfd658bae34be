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

/** Every code `FrameworkApp` throws (the README's error table lists the same). */
export const ERROR_CODES = {
  invalidOption: 'FW_ERR_PROJEN_INVALID_OPTION',
  duplicateId: 'FW_ERR_PROJEN_DUPLICATE_ID',
  unknownTemplate: 'FW_ERR_PROJEN_UNKNOWN_TEMPLATE',
} as const;
