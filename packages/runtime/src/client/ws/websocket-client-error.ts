import type { RuntimeErrorCode } from '../../errors.js';

/** The codes of `WebSocketClientError` (a subset of the runtime's codes, listed in the README's table). */
export type WebSocketClientErrorCode = Extract<RuntimeErrorCode, `FW_ERR_WS_CLIENT_${string}`>;

/**
 * What the WebSocket client reports: to `onError` when it stops for good (`FW_ERR_WS_CLIENT_REFUSED`,
 * `FW_ERR_WS_CLIENT_UNREACHABLE`), thrown by `send` for a message it cannot take (`FW_ERR_WS_CLIENT_CLOSED`,
 * `FW_ERR_WS_CLIENT_BUFFER_FULL`, `FW_ERR_WS_CLIENT_TOO_LARGE`).
 *
 * A plain `Error` with a `code`, not a `FrameworkError`: that class lives in `@framework/core`, whose module graph
 * reads files and hashes names with Node built-ins, and this one must bundle for the browser.
 */
export class WebSocketClientError extends Error {
  readonly code: WebSocketClientErrorCode;
  /** The HTTP status the upgrade was answered with, where the platform shows it (Node with `ws`; never a browser). */
  readonly status?: number;

  constructor(
    code: WebSocketClientErrorCode,
    message: string,
    options?: {
      readonly status?: number;
      readonly cause?: unknown;
    },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'WebSocketClientError';
    this.code = code;
    if (options?.status !== undefined) this.status = options.status;
  }
}
