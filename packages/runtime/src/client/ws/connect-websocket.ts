import ReconnectingWebSocket from 'partysocket/ws';
import { refusedStatus } from './refused-status.js';
import { WebSocketClientError } from './websocket-client-error.js';

/** Where the client is: `connecting` (first attempt), `open`, `reconnecting` (after a drop or a failed attempt), `closed` (for good). */
export type WebSocketStatus = 'connecting' | 'open' | 'reconnecting' | 'closed';

/**
 * The largest message the client sends: API Gateway refuses a frame over 32 KB by closing the connection (1009), and
 * a browser sends every message as a single frame. A larger message is refused by `send` instead.
 */
export const WS_CLIENT_MAX_MESSAGE_BYTES = 32 * 1024;

export interface WebSocketReconnectOptions {
  /** Delay before the first reconnect; each further failed attempt multiplies it by `growFactor`. @default 500 */
  readonly minDelayMs?: number;
  /** @default 10000 */
  readonly maxDelayMs?: number;
  /** @default 1.5 */
  readonly growFactor?: number;
  /**
   * Attempts in a row that fail before a connection opens, after which the client stops (`onError` with
   * `FW_ERR_WS_CLIENT_UNREACHABLE`). A refused upgrade whose status is known (401/403, Node with `ws`) stops at once.
   * @default 10
   */
  readonly maxFailedAttempts?: number;
  /** An attempt not open after this long counts as failed. @default 4000 */
  readonly connectTimeoutMs?: number;
}

export interface ConnectWebSocketOptions<Incoming> {
  /** The API's URL: under `fw dev` `ws://localhost:3000/_ws` (printed at start-up), deployed the app's `FW_WS_URL`. */
  readonly url: string;
  /**
   * Called before every connection attempt, the first and each reconnect: the access token to connect with, sent as the
   * `token` query parameter (a browser cannot set headers on a WebSocket). Return a fresh one (refresh it here); an
   * undefined token connects without one.
   */
  readonly token?: () => string | undefined | Promise<string | undefined>;
  /** Every message the server sends: text parsed as JSON (the text itself when it is not JSON), binary as an ArrayBuffer. */
  readonly onMessage?: (message: Incoming) => void;
  readonly onStatus?: (status: WebSocketStatus) => void;
  /** The client stopped for good (`FW_ERR_WS_CLIENT_REFUSED`, `FW_ERR_WS_CLIENT_UNREACHABLE`); `reconnect()` starts it again. */
  readonly onError?: (error: WebSocketClientError) => void;
  /** The message field the API selects routes by (`routeSelectionExpression` `$request.body.action`). @default 'action' */
  readonly actionField?: string;
  readonly reconnect?: WebSocketReconnectOptions;
  /** Messages `send` keeps while not connected, sent in order once connected; past it `send` throws. @default 1000 */
  readonly maxBufferedMessages?: number;
  /** A WebSocket class where there is no global one (Node before 22: `import WebSocket from 'ws'`). */
  readonly WebSocket?: unknown;
}

/** The messages a client sends, by action (route key): `{ chat: { text: string } }` types `send('chat', { text })`. */
export type WebSocketActions<Actions> = { [K in keyof Actions]: object };

export interface WebSocketClient<Actions extends WebSocketActions<Actions>> {
  readonly status: WebSocketStatus;
  /**
   * Sends `{ action, ...data }` as JSON, routed to `src/ws/<action>.ts` (`$default` when there is no such route):
   * `sent` when the connection is open, `buffered` (sent once it opens) while it (re)connects. Throws
   * `WebSocketClientError` when the client is closed, the buffer is full or the message is over 32 KB.
   */
  send<A extends keyof Actions & string>(action: A, data: Actions[A]): 'sent' | 'buffered';
  /** Sends any JSON value as it is (routed by its action field, else to `$default`); buffered and refused like `send`. */
  sendMessage(message: unknown): 'sent' | 'buffered';
  /** Resolves once the connection is open (at once when it is); rejects when the client stops before that. */
  opened(): Promise<void>;
  /** Closes the connection and stops reconnecting; messages still buffered are dropped. */
  close(): void;
  /** Starts again after `close()` or a stop (a fresh token is asked for), or drops the connection and opens a new one. */
  reconnect(): void;
}

const DEFAULTS = { minDelayMs: 500, maxDelayMs: 10_000, growFactor: 1.5, maxFailedAttempts: 10, connectTimeoutMs: 4000 } as const;

/**
 * A WebSocket client for the app's WebSocket API (browser or Node): reconnects with exponential backoff, asks for a
 * fresh token before every attempt, buffers what is sent while disconnected, encodes and decodes JSON, and stops with
 * an error (not a reconnect loop) when the connection is refused.
 *
 * ```ts
 * const socket = connectWebSocket<Incoming, { chat: { text: string } }>({
 *   url: 'ws://localhost:3000/_ws',
 *   token: () => auth.accessToken(),
 *   onMessage: (message) => render(message),
 * });
 * socket.send('chat', { text: 'hi' });
 * ```
 */
export function connectWebSocket<Incoming = unknown, Actions extends WebSocketActions<Actions> = Record<string, object>>(options: ConnectWebSocketOptions<Incoming>): WebSocketClient<Actions> {
  if (!/^wss?:\/\//i.test(options.url)) {
    throw new TypeError(`connectWebSocket: url must start with ws:// or wss:// (got "${options.url}"); fw dev prints its WebSocket URL at start-up (ws://localhost:3000/_ws), deployed it is the app's FW_WS_URL`);
  }
  const reconnect = { ...DEFAULTS, ...options.reconnect };
  const maxBuffered = options.maxBufferedMessages ?? 1000;
  const actionField = options.actionField ?? 'action';
  let status: WebSocketStatus = 'connecting';
  let stopped = false;
  let stoppedBy: WebSocketClientError | undefined;
  let failedAttempts = 0;
  let buffered = 0;
  let waiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];

  const setStatus = (next: WebSocketStatus) => {
    if (next === status) return;
    status = next;
    options.onStatus?.(next);
  };

  /** The URL of the next attempt, with a token asked for now (never after the client stopped). */
  const nextUrl = async (): Promise<string> => {
    if (stopped || !options.token) return options.url;
    const token = await options.token();
    if (token === undefined || token === '') return options.url;
    const url = new URL(options.url);
    url.searchParams.set('token', token);
    return url.toString();
  };

  const socket = new ReconnectingWebSocket(nextUrl, null, {
    WebSocket: options.WebSocket,
    minReconnectionDelay: reconnect.minDelayMs,
    maxReconnectionDelay: reconnect.maxDelayMs,
    reconnectionDelayGrowFactor: reconnect.growFactor,
    connectionTimeout: reconnect.connectTimeoutMs,
  });
  socket.binaryType = 'arraybuffer';

  const stop = (error: WebSocketClientError | undefined) => {
    stopped = true;
    stoppedBy = error;
    buffered = 0;
    socket.close();
    socket.drainQueuedMessages();
    setStatus('closed');
    const pending = waiters;
    waiters = [];
    for (const waiter of pending) waiter.reject(error ?? closedError());
    if (error) options.onError?.(error);
  };

  socket.addEventListener('open', () => {
    // The buffer was sent before this event (partysocket flushes first).
    failedAttempts = 0;
    buffered = 0;
    setStatus('open');
    const pending = waiters;
    waiters = [];
    for (const waiter of pending) waiter.resolve();
  });
  socket.addEventListener('message', (event: MessageEvent) => {
    if (stopped) return;
    options.onMessage?.(decode(event.data) as Incoming);
  });
  socket.addEventListener('close', () => {
    if (!stopped) setStatus('reconnecting');
  });
  // One error event per failed attempt (refused, unreachable, timed out, or the token function threw).
  socket.addEventListener('error', (event: Event) => {
    if (stopped) return;
    const cause = (event as { error?: unknown }).error;
    const status = refusedStatus(cause);
    if (status === 401 || status === 403) {
      stop(
        new WebSocketClientError(
          'FW_ERR_WS_CLIENT_REFUSED',
          `the WebSocket API refused the connection with ${status} (${status === 401 ? 'no token, or one that does not verify or has expired' : 'the token lacks a scope $connect requires'}): return a valid access token from the token function, then call reconnect()`,
          { status, cause },
        ),
      );
      return;
    }
    failedAttempts += 1;
    if (failedAttempts >= reconnect.maxFailedAttempts) {
      stop(
        new WebSocketClientError(
          'FW_ERR_WS_CLIENT_UNREACHABLE',
          `no connection to ${options.url} after ${failedAttempts} attempts in a row (${describe(cause, status)}); a browser does not tell a refused token (401) from a server that is down: check the URL, that the server runs, and the token, then call reconnect()`,
          { ...(status !== undefined ? { status } : {}), cause },
        ),
      );
      return;
    }
    setStatus('reconnecting');
  });

  const sendText = (message: unknown): 'sent' | 'buffered' => {
    if (stopped) throw closedError();
    const text = JSON.stringify(message);
    if (text === undefined) throw new TypeError('connectWebSocket: the message has no JSON form (undefined or a function)');
    // UTF-8 is at most 3 bytes per UTF-16 unit: only long texts are measured.
    const bytes = text.length * 3 <= WS_CLIENT_MAX_MESSAGE_BYTES ? text.length : new TextEncoder().encode(text).length;
    if (bytes > WS_CLIENT_MAX_MESSAGE_BYTES) {
      throw new WebSocketClientError(
        'FW_ERR_WS_CLIENT_TOO_LARGE',
        `the message is ${bytes} bytes, over the ${WS_CLIENT_MAX_MESSAGE_BYTES}-byte frame API Gateway accepts (it would close the connection with 1009): send large data through an HTTP route or storage, and its id here`,
      );
    }
    if (socket.readyState === socket.OPEN) {
      socket.send(text);
      return 'sent';
    }
    if (buffered >= maxBuffered) {
      throw new WebSocketClientError('FW_ERR_WS_CLIENT_BUFFER_FULL', `${buffered} messages are already waiting for the connection (maxBufferedMessages): wait for opened(), or raise the limit`);
    }
    socket.send(text);
    buffered += 1;
    return 'buffered';
  };

  return {
    get status() {
      return status;
    },
    send: (action, data) => sendText({ ...data, [actionField]: action }),
    sendMessage: sendText,
    opened: () => {
      if (status === 'open') return Promise.resolve();
      if (stopped) return Promise.reject(stoppedBy ?? closedError());
      return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
    },
    close: () => {
      if (!stopped) stop(undefined);
    },
    reconnect: () => {
      stopped = false;
      stoppedBy = undefined;
      failedAttempts = 0;
      setStatus('reconnecting');
      socket.reconnect();
    },
  };
}

function closedError(): WebSocketClientError {
  return new WebSocketClientError('FW_ERR_WS_CLIENT_CLOSED', 'the WebSocket client is closed (close() was called, or it stopped after an error): call reconnect() first');
}

/** A server message: JSON text parsed, other text as it is, binary (an ArrayBuffer) as it is. */
function decode(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

function describe(cause: unknown, status: number | undefined): string {
  if (status !== undefined) return `last answered ${status}`;
  const message = typeof cause === 'object' && cause !== null ? (cause as { message?: unknown }).message : undefined;
  return typeof message === 'string' && message ? `last error: ${message}` : 'the platform gives no reason';
}
