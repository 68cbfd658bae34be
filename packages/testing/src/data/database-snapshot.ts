import pg from 'pg';

/** Where a database of the running app answers (the engine's own server, not the dev server's forwarding port). */
export interface DatabaseEndpoint {
  readonly host: string;
  readonly port: number;
  readonly database: string;
}

export interface TableSnapshot {
  /** `"schema"."table"`, quoted. */
  readonly name: string;
  /** Quoted names of the columns a row is restored into (generated columns left out). */
  readonly columns: string;
  /** The rows, as `json_agg` gave them; undefined when the table was empty. */
  readonly rows: string | undefined;
}

export interface SequenceSnapshot {
  readonly name: string;
  readonly lastValue: string;
  readonly isCalled: boolean;
}

/**
 * The whole snapshot in one round trip (on PGlite each one crosses to its process; a statement per table made it
 * take seconds on a busy machine): a session-temporary function reads a table's rows as JSON, then one SELECT lists
 * every user table with the columns a row is restored into (generated ones left out) and its rows, then the
 * sequences.
 */
const SNAPSHOT = `
  CREATE OR REPLACE FUNCTION pg_temp.fw_snapshot_rows(t regclass) RETURNS text LANGUAGE plpgsql AS $fw$
    DECLARE rows text;
    BEGIN EXECUTE format('SELECT json_agg(r)::text FROM %s r', t) INTO rows; RETURN rows; END
  $fw$;
  SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS name,
    (SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum) FROM pg_attribute a
      WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = '') AS columns,
    pg_temp.fw_snapshot_rows(c.oid) AS rows
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%' AND n.nspname NOT LIKE 'pg_temp%'
  ORDER BY n.nspname, c.relname;
  SELECT quote_ident(schemaname) || '.' || quote_ident(sequencename) AS name, COALESCE(last_value, start_value)::text AS last_value, last_value IS NOT NULL AS is_called
  FROM pg_sequences WHERE schemaname NOT IN ('pg_catalog', 'information_schema');`;

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * The restore as one text (one round trip: on PGlite each one crosses to its process). Rows go back through
 * `json_populate_recordset`, so every type round-trips as PostgreSQL prints it. DELETE rather than TRUNCATE: a test
 * leaves few rows, and TRUNCATE's per-table cost (new files for every table and index) is what dominates then.
 * Triggers and foreign-key checks are off inside it (`session_replication_role`), so the order of tables is free.
 */
function restoreStatements(tables: readonly TableSnapshot[], sequences: readonly SequenceSnapshot[]): string {
  if (tables.length === 0 && sequences.length === 0) return '';
  const statements = ['BEGIN', 'SET LOCAL session_replication_role = replica'];
  for (const table of tables) statements.push(`DELETE FROM ${table.name}`);
  for (const table of tables) {
    if (table.rows === undefined) continue;
    statements.push(`INSERT INTO ${table.name} (${table.columns}) OVERRIDING SYSTEM VALUE SELECT ${table.columns} FROM json_populate_recordset(NULL::${table.name}, ${literal(table.rows)}::json)`);
  }
  if (sequences.length) statements.push(`SELECT ${sequences.map((s) => `setval(${literal(s.name)}, ${BigInt(s.lastValue)}, ${s.isCalled})`).join(', ')}`);
  statements.push('COMMIT');
  return statements.join(';\n');
}

/** What a snapshot holds: every table's rows and every sequence's position (JSON, kept beside a migrated template). */
export interface SnapshotContent {
  readonly tables: readonly TableSnapshot[];
  readonly sequences: readonly SequenceSnapshot[];
}

/** Reads the snapshot of the database `client` is connected to: one round trip. */
async function readContent(client: pg.Client): Promise<SnapshotContent> {
  const [, tableRows, sequenceRows] = (await client.query(SNAPSHOT)) as unknown as [unknown, pg.QueryResult<{ name: string; columns: string | null; rows: string | null }>, pg.QueryResult<{ name: string; last_value: string; is_called: boolean }>];
  const tables: TableSnapshot[] = tableRows.rows.map((t) => ({ name: t.name, columns: t.columns ?? '', rows: t.rows ?? undefined }));
  const sequences = sequenceRows.rows.map((s) => ({ name: s.name, lastValue: s.last_value, isCalled: s.is_called }));
  return { tables, sequences };
}

/** A snapshot read back from JSON, or undefined when it is not one (a file of another version, cut short). */
export function parseSnapshotContent(text: string): SnapshotContent | undefined {
  try {
    const value = JSON.parse(text) as SnapshotContent;
    const fine = Array.isArray(value.tables) && Array.isArray(value.sequences) && value.tables.every((t) => typeof t.name === 'string' && typeof t.columns === 'string' && (t.rows === undefined || typeof t.rows === 'string'));
    return fine ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The rows of every table and the position of every sequence of one database, taken once after the migrations ran,
 * and put back before each test: one transaction that empties every table, re-inserts the rows the migrations left
 * (seed data, the migrations' own bookkeeping) and resets the sequences. The schema is not touched, so the open
 * connections of the app's functions stay valid (dropping and re-creating the database would break their pools), and
 * the same statements work on PGlite and on a native PostgreSQL server.
 *
 * Taken from the running database (`take`), or known before it runs (`known`: the snapshot of the migrated template
 * it was copied from, read when that template was first used): then nothing waits for the database to boot until
 * the test queries, seeds or resets it.
 */
export class DatabaseSnapshot {
  /** The whole restore, written once: the statements and the rows (as JSON literals) in one text. */
  private readonly restoreSql: string;
  private connecting?: Promise<pg.Client>;
  private connected?: pg.Client;
  private direct?: DatabaseEndpoint;

  private constructor(
    private readonly published: DatabaseEndpoint,
    private readonly directEndpoint: Promise<DatabaseEndpoint>,
    /** What it restores. */
    readonly content: SnapshotContent,
    client?: pg.Client,
  ) {
    this.restoreSql = restoreStatements(content.tables, content.sequences);
    if (client) {
      this.connected = client;
      this.connecting = Promise.resolve(client);
    }
    void directEndpoint.then(
      (endpoint) => (this.direct = endpoint),
      () => undefined,
    );
  }

  /** Connects and takes the snapshot of the database as it is now. */
  static async take(endpoint: DatabaseEndpoint): Promise<DatabaseSnapshot> {
    const client = new pg.Client({ host: endpoint.host, port: endpoint.port, database: endpoint.database, user: 'postgres' });
    await client.connect();
    try {
      return new DatabaseSnapshot(endpoint, Promise.resolve(endpoint), await readContent(client), client);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
  }

  /**
   * A snapshot whose content is known already (the database starts as a copy of what it was taken from): connects to
   * `direct` (the server's own port, once it is up) at the first query, seed or restore. `published` answers meanwhile
   * (the dev server's forwarding port, which holds a connection until the database is ready).
   */
  static known(published: DatabaseEndpoint, direct: Promise<DatabaseEndpoint>, content: SnapshotContent): DatabaseSnapshot {
    return new DatabaseSnapshot(published, direct, content);
  }

  /** Where the database answers (user `postgres`, no password): its server's own port once known. */
  get endpoint(): DatabaseEndpoint {
    return this.direct ?? this.published;
  }

  /** Puts the database back as it was when the snapshot was taken: one round trip, one transaction. */
  async restore(): Promise<void> {
    if (!this.restoreSql) return;
    const client = await this.client();
    try {
      await client.query(this.restoreSql);
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  /** The connection the snapshot restores through (tests seed and query with it), opened at its first use. */
  client(): Promise<pg.Client> {
    this.connecting ??= this.directEndpoint.then(async (endpoint) => {
      const client = new pg.Client({ host: endpoint.host, port: endpoint.port, database: endpoint.database, user: 'postgres' });
      await client.connect();
      this.connected = client;
      return client;
    });
    return this.connecting;
  }

  async close(): Promise<void> {
    // A connection still opening is closed once open: nothing may keep the test process alive.
    const client = this.connected ?? (this.connecting ? await this.connecting.catch(() => undefined) : undefined);
    await client?.end().catch(() => undefined);
  }
}
