import { randomBytes } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { isUtf8 } from 'node:buffer';
import { routeSelectionPath, WS_ANONYMOUS_CONNECTION, type WsDefinition, type WsRouteDefinition } from '@framework/core';
import { WebSocketServer, type WebSocket } from 'ws';
import type { DevLogger, InvokeOutcome } from '../engines/engine.js';
import { buildConnectEvent, buildDisconnectEvent, MessageEventTemplate, type WsApiInfo, type WsConnectionInfo } from '../events/ws-event.js';
import { EventText } from '../functions/event-text.js';
import { FrameSizeGuard } from './frame-size-guard.js';

/** API Gateway's WebSocket limits, emulated (see the README, "WebSocket API"). */
export const WS_LIMITS = {
  /** A frame larger than this closes the connection (1009). */
  frameBytes: 32 * 1024,
  /** A message (all its frames) larger than this closes the connection (1009); a `@connections` POST larger is 413. */
  messageBytes: 128 * 1024,
  /** A connection the client sent nothing on for this long is closed (1001). */
  idleMs: 10 * 60 * 1000,
  /** A connection is closed (1001) this long after it opened. */
  connectionMs: 2 * 60 * 60 * 1000,
} as const;

export type WsLimits = { readonly [K in keyof typeof WS_LIMITS]: number };

/** Why a connection was not opened: the status the upgrade request is answered with and the reason for the console. */
export class ConnectRefused extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export interface LocalWebSocketApiOptions {
  readonly api: WsApiInfo;
  /** The app's WebSocket routes as they are now (files added after start-up are served). */
  definition(): WsDefinition | undefined;
  invoke(unit: WsRouteDefinition, event: unknown): Promise<InvokeOutcome>;
  /**
   * Brings the routes (no file) or one route's handler up to date with the files on disk, as before an HTTP request
   * (`DevContext.fresh`): called before a route is chosen and before it runs, so the first message after a save is
   * served by the saved code. @default - none (the routes as `definition()` has them)
   */
  fresh?(file?: string): Promise<void> | undefined;
  /**
   * The `$connect` authorizer: the claims of a token (the `Authorization` header's, else the `token` query
   * parameter's) as its context; throws `ConnectRefused` (401) for a token that does not verify.
   */
  authorize(token: string): Promise<Record<string, string | number | boolean>>;
  /**
   * Whether the deployed `$connect` runs behind the authorizer (core's `wsConnectIsAuthorized`): only then is a token
   * verified and a connection without one given the anonymous context; otherwise API Gateway ignores a token, and so
   * does fw dev. @default () => true
   */
  connectAuthorized?(): boolean;
  readonly log: DevLogger;
  /**
   * A connection opened (after `$connect` accepted it), with the authorizer context it got: the dev server records it
   * in the connection registry when the app has no `$connect` file to do so.
   */
  opened?(connectionId: string, connectedAt: number, authorizer: Record<string, string | number | boolean> | undefined): void;
  /**
   * A connection closed (after its `$disconnect` ran, if any), or `$connect` accepted it but it never opened (the
   * client went away meanwhile: `opened` false, no `$disconnect` runs for it).
   */
  closed?(connectionId: string, opened: boolean): void;
  /** @default WS_LIMITS */
  readonly limits?: Partial<WsLimits>;
}

interface Connection extends WsConnectionInfo {
  readonly socket: WebSocket;
  lastActiveAt: number;
  /** Over a limit: closing, its messages no longer reach a handler. */
  refused: boolean;
  /** Its message events as text (the connection's part serialized once). */
  readonly events: MessageEventTemplate;
  /** Fires at the earliest moment the connection can be idle too long; re-armed then if it was active meanwhile. */
  idleTimer?: NodeJS.Timeout;
  lifeTimer?: NodeJS.Timeout;
}

/** What the management API's `GET @connections/{id}` answers, in the SDK's JSON names. */
export interface ConnectionDescription {
  readonly connectedAt: string;
  readonly identity: { readonly sourceIp: string; readonly userAgent?: string };
  readonly lastActiveAt: string;
}

/** A connection id in API Gateway's form (`L0SM9cOFvHcCIhw=`), safe in a URL path once encoded. */
function connectionId(): string {
  return randomBytes(10).toString('base64');
}

/** The token of an upgrade request: the `Authorization` header (with or without `Bearer `), else `?token=`. */
export function tokenOf(request: IncomingMessage, query: URLSearchParams): string | undefined {
  const header = /^(?:Bearer\s+)?(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return header?.[1] ?? (query.get('token') || undefined);
}

/**
 * `fw dev`'s WebSocket API: upgrades on the dev server's port, API Gateway's event shapes to the route functions
 * (`$connect` may refuse, messages routed by the route selection expression, `$disconnect` on close), the
 * management operations the `@connections` API serves, and API Gateway's limits.
 */
export class LocalWebSocketApi {
  private readonly connections = new Map<string, Connection>();
  private readonly server: WebSocketServer;
  private readonly limits: WsLimits;
  private stopped = false;

  constructor(private readonly options: LocalWebSocketApiOptions) {
    this.limits = { ...WS_LIMITS, ...options.limits };
    // No compression: API Gateway negotiates none, and the limits apply to the bytes as sent.
    this.server = new WebSocketServer({ noServer: true, maxPayload: this.limits.messageBytes, perMessageDeflate: false });
  }

  /** Connections open now. */
  get size(): number {
    return this.connections.size;
  }

  /** An upgrade request to the WebSocket path: authorizes it, runs `$connect`, then opens the connection or refuses it. */
  async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => undefined);
    const query = new URL(request.url ?? '/', 'http://localhost').searchParams;
    const info: WsConnectionInfo & { authorizer?: Record<string, string | number | boolean> } = {
      connectionId: connectionId(),
      connectedAt: Date.now(),
      sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
      ...(request.headers['user-agent'] !== undefined ? { userAgent: request.headers['user-agent'] } : {}),
    };
    try {
      if (this.options.connectAuthorized?.() ?? true) {
        const token = tokenOf(request, query);
        info.authorizer = token !== undefined ? await this.options.authorize(token) : { ...WS_ANONYMOUS_CONNECTION };
      }
      const connect = await this.freshRoute('$connect');
      if (connect) {
        const outcome = await this.options.invoke(connect, buildConnectEvent(this.options.api, info, { rawHeaders: request.rawHeaders, query }));
        if (!outcome.ok) throw new ConnectRefused(500, `$connect failed (${outcome.errorType}: ${outcome.errorMessage})`);
        const status = (outcome.value as { statusCode?: unknown } | null)?.statusCode;
        if (typeof status === 'number' && (status < 200 || status > 299)) throw new ConnectRefused(status, `$connect answered ${status}${bodyText(outcome.value)}`);
      }
    } catch (error) {
      const refused = error instanceof ConnectRefused ? error : new ConnectRefused(500, `the connection could not be authorized: ${(error as Error).message}`);
      this.options.log.warn(`WebSocket connect refused with ${refused.statusCode}: ${refused.message}`);
      return refuseUpgrade(socket, refused.statusCode);
    }
    if (this.stopped || socket.destroyed) return void this.options.closed?.(info.connectionId, false);
    this.server.handleUpgrade(request, socket, head, (ws) => {
      this.open(ws, socket, info);
      this.options.opened?.(info.connectionId, info.connectedAt, info.authorizer);
    });
  }

  private route(routeKey: string): WsRouteDefinition | undefined {
    return this.options.definition()?.routes.find((r) => r.routeKey === routeKey);
  }

  /** The route as the files on disk have it now, its handler rebuilt if it changed. */
  private async freshRoute(routeKey: string): Promise<WsRouteDefinition | undefined> {
    const routes = this.options.fresh?.();
    if (routes) await routes;
    const unit = this.route(routeKey);
    const handler = unit && this.options.fresh?.(unit.file);
    if (handler) await handler;
    return unit;
  }

  private open(ws: WebSocket, socket: Duplex, info: WsConnectionInfo): void {
    const connection: Connection = { ...info, socket: ws, lastActiveAt: Date.now(), refused: false, events: new MessageEventTemplate(this.options.api, info) };
    this.connections.set(info.connectionId, connection);
    const guard = new FrameSizeGuard(this.limits.frameBytes);
    // Before the `ws` parser sees the bytes, so a frame over the limit never becomes a message.
    socket.prependListener('data', (chunk: Buffer) => {
      if (connection.refused) return;
      const size = guard.feed(chunk);
      if (size !== undefined) this.refuse(connection, `sent a frame of ${size} bytes, over API Gateway's ${this.limits.frameBytes}-byte frame limit (split larger messages into frames)`);
    });
    connection.lifeTimer = setTimeout(() => this.close(connection, 1001, 'Going away', `is ${this.limits.connectionMs / 1000} s old, API Gateway's longest connection`), this.limits.connectionMs);
    connection.lifeTimer.unref();
    this.touch(connection);
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (connection.refused) return;
      this.touch(connection);
      void this.message(connection, data, isBinary);
    });
    // `ws` reports a message over `maxPayload` as an error and closes with 1009 itself.
    ws.on('error', (error: Error & { code?: string }) => {
      if (error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
        connection.refused = true;
        this.options.log.warn(`WebSocket connection ${connection.connectionId} sent a message over API Gateway's ${this.limits.messageBytes}-byte message limit; closed with 1009`);
      } else {
        this.options.log.warn(`WebSocket connection ${connection.connectionId}: ${error.message}`);
      }
    });
    ws.on('close', (code: number, reason: Buffer) => void this.closed(connection, code, reason.toString('utf8')));
  }

  /** Records activity; the idle timer is not moved per message (timers per message cost more than the check). */
  private touch(connection: Connection): void {
    connection.lastActiveAt = Date.now();
    if (!connection.idleTimer) this.armIdleTimer(connection, this.limits.idleMs);
  }

  private armIdleTimer(connection: Connection, delayMs: number): void {
    connection.idleTimer = setTimeout(() => {
      const idleFor = Date.now() - connection.lastActiveAt;
      if (idleFor >= this.limits.idleMs) this.close(connection, 1001, 'Going away', `was idle for ${this.limits.idleMs / 1000} s, API Gateway's idle timeout`);
      else this.armIdleTimer(connection, this.limits.idleMs - idleFor);
    }, delayMs);
    connection.idleTimer.unref();
  }

  private refuse(connection: Connection, why: string): void {
    connection.refused = true;
    this.close(connection, 1009, 'Message too big', why);
  }

  private close(connection: Connection, code: number, reason: string, why: string): void {
    this.options.log.warn(`WebSocket connection ${connection.connectionId} ${why}; closed with ${code}`);
    connection.socket.close(code, reason);
  }

  private async message(connection: Connection, data: Buffer, isBinary: boolean): Promise<void> {
    // Usually nothing changed and no promise is made: messages reach their handlers in the order they came.
    const routes = this.options.fresh?.();
    if (routes) await routes;
    const definition = this.options.definition();
    const routeKey = definition && selectRoute(definition, data, isBinary);
    const unit = routeKey === undefined ? undefined : this.route(routeKey);
    const handler = unit && this.options.fresh?.(unit.file);
    if (handler) await handler;
    if (!unit) {
      // API Gateway's answer to a message no route takes.
      this.reply(connection, { message: 'Forbidden', connectionId: connection.connectionId, requestId: gatewayRequestId() });
      return;
    }
    const outcome = await this.options.invoke(unit, new EventText(connection.events.json(unit.routeKey, data, isBinary)));
    if (!outcome.ok) {
      this.options.log.warn(`WebSocket route ${unit.routeKey} failed (${outcome.errorType}: ${outcome.errorMessage})`);
      this.reply(connection, { message: 'Internal server error', connectionId: connection.connectionId, requestId: gatewayRequestId() });
    }
  }

  private reply(connection: Connection, body: unknown): void {
    if (connection.socket.readyState === connection.socket.OPEN) connection.socket.send(JSON.stringify(body));
  }

  private async closed(connection: Connection, code: number, reason: string): Promise<void> {
    clearTimeout(connection.idleTimer);
    clearTimeout(connection.lifeTimer);
    if (this.connections.get(connection.connectionId) !== connection) return;
    this.connections.delete(connection.connectionId);
    if (this.stopped) return;
    const disconnect = await this.freshRoute('$disconnect');
    if (disconnect) {
      const outcome = await this.options.invoke(disconnect, buildDisconnectEvent(this.options.api, connection, code, reason));
      if (!outcome.ok) this.options.log.warn(`WebSocket route $disconnect failed (${outcome.errorType}: ${outcome.errorMessage})`);
    }
    this.options.closed?.(connection.connectionId, true);
  }

  /** `POST @connections/{id}`: sends `data` (a text frame when it is UTF-8, else binary). */
  send(id: string, data: Buffer): 'sent' | 'gone' | 'too-large' {
    const connection = this.connections.get(id);
    if (!connection || connection.refused || connection.socket.readyState !== connection.socket.OPEN) return 'gone';
    if (data.length > this.limits.messageBytes) return 'too-large';
    connection.socket.send(data, { binary: !isUtf8(data) });
    return 'sent';
  }

  /** `GET @connections/{id}`. */
  describe(id: string): ConnectionDescription | undefined {
    const connection = this.connections.get(id);
    if (!connection) return undefined;
    return {
      connectedAt: new Date(connection.connectedAt).toISOString(),
      identity: { sourceIp: connection.sourceIp, ...(connection.userAgent !== undefined ? { userAgent: connection.userAgent } : {}) },
      lastActiveAt: new Date(connection.lastActiveAt).toISOString(),
    };
  }

  /** `DELETE @connections/{id}`: closes it (its `$disconnect` runs); false when there is no such connection. */
  disconnect(id: string): boolean {
    const connection = this.connections.get(id);
    if (!connection) return false;
    connection.socket.close(1000, 'Connection closed by the server');
    return true;
  }

  /** Closes every connection without running `$disconnect` (fw dev is stopping, its functions with it). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const connection of this.connections.values()) {
      clearTimeout(connection.idleTimer);
      clearTimeout(connection.lifeTimer);
      connection.socket.terminate();
    }
    this.connections.clear();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The route of a message: the selection expression's field when a route has that key, else `$default`. */
export function selectRoute(definition: WsDefinition, data: Buffer, isBinary: boolean): string | undefined {
  const path = selectionPath(definition.routeSelectionExpression);
  if (path && !isBinary) {
    let value: unknown;
    try {
      value = JSON.parse(data.toString('utf8'));
    } catch {
      value = undefined;
    }
    for (const key of path) value = typeof value === 'object' && value !== null && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
    if (typeof value === 'string' && !value.startsWith('$') && definition.routes.some((r) => r.routeKey === value)) return value;
  }
  return definition.routes.some((r) => r.routeKey === '$default') ? '$default' : undefined;
}

/** The last expression's path: the same for every message until the app changes it. */
let lastSelection: { expression: string; path: string[] | undefined } | undefined;
function selectionPath(expression: string): readonly string[] | undefined {
  if (lastSelection?.expression !== expression) lastSelection = { expression, path: routeSelectionPath(expression) };
  return lastSelection.path;
}

function gatewayRequestId(): string {
  return randomBytes(10).toString('base64');
}

function bodyText(value: unknown): string {
  const body = (value as { body?: unknown } | null)?.body;
  return typeof body === 'string' && body ? `: ${body.slice(0, 300)}` : '';
}

/** Answers an upgrade request with a plain HTTP status, as API Gateway refuses a connection, and closes the socket. */
function refuseUpgrade(socket: Duplex, statusCode: number): void {
  if (socket.destroyed) return;
  const body = JSON.stringify({ message: statusCode === 401 ? 'Unauthorized' : statusCode === 403 ? 'Forbidden' : STATUS_CODES[statusCode] ?? 'Error' });
  socket.end(`HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode] ?? 'Error'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}
