import { FrameworkError } from '@framework/core';

/** A failure of the test harness that a test author can fix: the message names the problem and the fix. */
export class TestingError extends FrameworkError {
  public static readonly CODES = {
    FW_ERR_TESTING_LOCAL_ONLY: 'a helper that needs the local engines (clock, drain, queues, storage, invoke, data, logs) was used against a deployed stage',
    FW_ERR_TESTING_BAD_OPTION: 'an option of startApp or a helper has a bad value (a duration that does not parse, an identity with nothing in it)',
    FW_ERR_TESTING_NOT_FOUND: 'a queue, bucket, database or function id the app does not declare',
    FW_ERR_TESTING_TOKEN: 'the issuer refused to mint the token asked for (an undeclared role, scope or app client)',
    FW_ERR_TESTING_STOPPED: 'the app was used after stop()',
  } as const;

  constructor(code: keyof typeof TestingError.CODES, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** Every code of this package, with its cause (the README's table lists the same codes). */
export const TESTING_ERROR_CODES = TestingError.CODES;
