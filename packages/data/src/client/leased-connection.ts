import type pg from 'pg';
import type { PoolClient } from 'pg';

/**
 * A connection checked out of a `pg` pool for a series of statements (a transaction, a migration run), listening
 * for its `'error'` event for as long as it is out.
 *
 * The pool only listens while a connection is idle in it. A checked-out client whose backend dies (terminated,
 * failover, idle-session timeout, network) emits `'error'` even when a statement is running, and an `'error'` event
 * nobody listens to kills the process: every request it serves dies with it. Here the error is recorded instead;
 * the statement running (or the next one) fails, and `release()` discards the dead connection.
 */
export class LeasedConnection {
  /** Checks a connection out of the pool and starts listening for its errors. */
  public static async take(pool: pg.Pool): Promise<LeasedConnection> {
    return new LeasedConnection(await pool.connect());
  }

  private lostWith?: Error;
  private readonly onError = (error: Error): void => {
    this.lostWith ??= error;
  };

  private constructor(public readonly client: PoolClient) {
    client.on('error', this.onError);
  }

  /** The error the connection died with, once it has. */
  public get lost(): Error | undefined {
    return this.lostWith;
  }

  /**
   * Returns the connection to the pool, or destroys it when it died or `broken` says its state is unknown. The pool
   * listens for the client's errors again from inside `release`, so no moment is left without a listener.
   */
  public release(broken?: Error): void {
    this.client.release(this.lostWith ?? broken);
    this.client.removeListener('error', this.onError);
  }
}
