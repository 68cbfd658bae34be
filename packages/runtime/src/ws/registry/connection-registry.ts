import { WS_CONNECTION_TTL_SECONDS } from '@framework/core/names';
import { RuntimeError } from '../../errors.js';

/** One connection as the registry keeps it. */
export interface RegisteredConnection {
  readonly connectionId: string;
  /** The caller's subject (`ctx.auth.subject` at `$connect`), when the connection sent a token. */
  readonly subject?: string;
  /** When it opened (epoch milliseconds). */
  readonly connectedAt: number;
  /** When the registry forgets it (epoch seconds): `connectedAt` + 2 h, API Gateway's longest connection. */
  readonly expiresAt: number;
}

/** Which connections `service.ws.connections` lists: those of a user (token subject) or those subscribed to a topic. */
export type ConnectionQuery = { readonly user: string; readonly topic?: never } | { readonly topic: string; readonly user?: never };

/**
 * Where the framework records the WebSocket API's connections: written at `$connect` / `$disconnect` (by `wsHandler`
 * or, for a route without a file, the framework's own function), by `subscribe` / `unsubscribe`, and when a send
 * meets 410 Gone. Backends: DynamoDB deployed, the dev server's under `fw dev`, memory otherwise.
 */
export interface ConnectionRegistry {
  /** Records a connection (again: replaces it). */
  register(connection: RegisteredConnection): Promise<void>;
  /** Forgets a connection and its subscriptions; one it does not know is not an error. */
  remove(connectionId: string): Promise<void>;
  /** Subscribes a connection to a topic; false when the registry does not know the connection (it is gone). */
  subscribe(connectionId: string, topic: string, nowMs: number): Promise<boolean>;
  unsubscribe(connectionId: string, topic: string): Promise<void>;
  /** The live connections of a user or a topic (expired ones left out). */
  connections(query: ConnectionQuery, nowMs: number): Promise<string[]>;
}

/** A registry read or write failed (the store answered with an error or could not be reached). */
export class WsRegistryError extends RuntimeError {
  constructor(operation: string, cause: unknown) {
    super('FW_ERR_WS_REGISTRY_FAILED', `The WebSocket connection registry could not ${operation}: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

/** A topic, connection id or query `service.ws` cannot use. */
export class WsBadArgument extends RuntimeError {
  constructor(message: string) {
    super('FW_ERR_WS_BAD_ARGUMENT', message);
  }
}

/** A topic is at most this long (it is part of a DynamoDB key). */
export const MAX_TOPIC_LENGTH = 256;

export function checkTopic(topic: unknown): string {
  if (typeof topic !== 'string' || topic.length === 0 || topic.length > MAX_TOPIC_LENGTH) {
    throw new WsBadArgument(`a WebSocket topic is a non-empty string of at most ${MAX_TOPIC_LENGTH} characters, got ${typeof topic === 'string' ? `${topic.length} characters` : typeof topic}; name topics such as "tasks" or "room:42"`);
  }
  return topic;
}

export function checkConnectionId(connectionId: unknown): string {
  if (typeof connectionId !== 'string' || connectionId.length === 0 || connectionId.length > 128) {
    throw new WsBadArgument(`a WebSocket connection id is the non-empty string of ctx.connectionId, got ${typeof connectionId === 'string' ? `${connectionId.length} characters` : typeof connectionId}`);
  }
  return connectionId;
}

export function checkQuery(query: unknown): ConnectionQuery {
  const q = query as { user?: unknown; topic?: unknown } | null;
  const hasUser = typeof q?.user === 'string' && q.user !== '';
  const hasTopic = q?.topic !== undefined;
  if (hasUser === hasTopic) throw new WsBadArgument('service.ws.connections takes { user: <token subject> } or { topic: <topic> }, exactly one of them');
  return hasUser ? { user: q!.user as string } : { topic: checkTopic(q!.topic) };
}

/** The record of a connection opened at `connectedAt` (ms) by `subject`: it expires 2 h later, as API Gateway closes it. */
export function connectionRecord(connectionId: string, connectedAt: number, subject: string | undefined): RegisteredConnection {
  return { connectionId, ...(subject ? { subject } : {}), connectedAt, expiresAt: Math.floor(connectedAt / 1000) + WS_CONNECTION_TTL_SECONDS };
}
