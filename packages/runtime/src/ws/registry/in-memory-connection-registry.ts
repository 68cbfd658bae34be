import type { ConnectionQuery, ConnectionRegistry, RegisteredConnection } from './connection-registry.js';

interface Entry {
  readonly connection: RegisteredConnection;
  readonly topics: Set<string>;
}

/**
 * The registry in memory: what the dev server keeps (connections do not outlive it), and what tests and scripts get
 * outside a deployed function and `fw dev`. Indexes by topic and by user, so a lookup costs the size of its answer.
 */
export class InMemoryConnectionRegistry implements ConnectionRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly byTopic = new Map<string, Set<string>>();
  private readonly byUser = new Map<string, Set<string>>();

  /** Connections recorded now. */
  get size(): number {
    return this.entries.size;
  }

  async register(connection: RegisteredConnection): Promise<void> {
    await this.remove(connection.connectionId);
    this.entries.set(connection.connectionId, { connection: { ...connection }, topics: new Set() });
    if (connection.subject) add(this.byUser, connection.subject, connection.connectionId);
  }

  async remove(connectionId: string): Promise<void> {
    const entry = this.entries.get(connectionId);
    if (!entry) return;
    this.entries.delete(connectionId);
    for (const topic of entry.topics) drop(this.byTopic, topic, connectionId);
    if (entry.connection.subject) drop(this.byUser, entry.connection.subject, connectionId);
  }

  async subscribe(connectionId: string, topic: string, nowMs: number): Promise<boolean> {
    const entry = this.live(connectionId, nowMs);
    if (!entry) return false;
    entry.topics.add(topic);
    add(this.byTopic, topic, connectionId);
    return true;
  }

  async unsubscribe(connectionId: string, topic: string): Promise<void> {
    this.entries.get(connectionId)?.topics.delete(topic);
    drop(this.byTopic, topic, connectionId);
  }

  async connections(query: ConnectionQuery, nowMs: number): Promise<string[]> {
    const ids = query.topic !== undefined ? this.byTopic.get(query.topic) : this.byUser.get(query.user);
    return [...(ids ?? [])].filter((id) => this.live(id, nowMs));
  }

  /** The connection's record (tests, the dev server's diagnostics). */
  get(connectionId: string): (RegisteredConnection & { readonly topics: readonly string[] }) | undefined {
    const entry = this.entries.get(connectionId);
    return entry && { ...entry.connection, topics: [...entry.topics] };
  }

  private live(connectionId: string, nowMs: number): Entry | undefined {
    const entry = this.entries.get(connectionId);
    return entry && entry.connection.expiresAt * 1000 > nowMs ? entry : undefined;
  }
}

function add(index: Map<string, Set<string>>, key: string, id: string): void {
  let ids = index.get(key);
  if (!ids) index.set(key, (ids = new Set()));
  ids.add(id);
}

function drop(index: Map<string, Set<string>>, key: string, id: string): void {
  const ids = index.get(key);
  if (!ids) return;
  ids.delete(id);
  if (ids.size === 0) index.delete(key);
}
