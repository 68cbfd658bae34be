import { ProtocolExchange } from './protocol-exchange.js';

/** What pglite-socket's server uses of a PGlite instance (structural: this package does not depend on PGlite). */
export interface PgliteSession {
  isInTransaction(): boolean;
  execProtocolRawStream(message: Uint8Array, options: { onRawData: (data: Uint8Array) => void; syncToFs?: boolean }): Promise<void>;
  exec(query: string): Promise<unknown>;
}

/**
 * PGlite to hand to pglite-socket's `PGLiteSocketServer` when several connections share it (`fw dev`'s embedded
 * engine, the test engines): each connection then has the session to itself from its first message to the end of the
 * exchange (the server's ReadyForQuery), not only inside a transaction.
 *
 * Why: PGlite is one Postgres session. pglite-socket 0.2 queues the messages of all connections and, while a
 * transaction is open, takes only those of the connection that opened it (it asks `isInTransaction()`); outside a
 * transaction it takes them one message at a time in arrival order. A parameterized query is several messages (Parse,
 * Bind, Describe, Execute, Sync) and the unnamed statement and portal belong to the session, so two connections'
 * queries interleave: one binds or executes the other's statement. Measured with 8 connections and 30 concurrent
 * parameterized queries: 11 answers were another query's rows or errors ("portal \"\" does not exist", "bind message
 * supplies 1 parameters, but prepared statement \"\" requires 2"), and with 300 the server stopped answering (its
 * queue stops for good once a message throws). Here `isInTransaction()` also says yes while an exchange is open, so
 * the server keeps taking the same connection's messages until its exchange is over. The session stays one: a
 * connection that holds it (a transaction, an exchange waiting on the client) makes the others wait, as before inside
 * transactions.
 */
export function oneExchangeAtATime<T extends PgliteSession>(db: T): T {
  let exchangeOpen = false;
  const isInTransaction = (): boolean => exchangeOpen || db.isInTransaction();
  const execProtocolRawStream: PgliteSession['execProtocolRawStream'] = async (message, options) => {
    const exchange = new ProtocolExchange();
    try {
      await db.execProtocolRawStream(message, {
        ...options,
        onRawData: (data) => {
          exchange.see(data);
          options.onRawData(data);
        },
      });
    } finally {
      exchangeOpen = !exchange.endedWithReadyForQuery;
    }
  };
  // pglite-socket runs `exec('ROLLBACK')` when the connection holding the session goes away: the exchange ends too.
  const exec = async (query: string): Promise<unknown> => {
    try {
      return await db.exec(query);
    } finally {
      exchangeOpen = false;
    }
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === 'isInTransaction') return isInTransaction;
      if (property === 'execProtocolRawStream') return execProtocolRawStream;
      if (property === 'exec') return exec;
      const value: unknown = Reflect.get(target, property, target);
      // Bound to PGlite itself: its methods use private fields, which a proxy as `this` cannot reach.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
