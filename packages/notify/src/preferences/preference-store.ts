import { sql, type Queryable } from '@framework/data';
import { InvalidNotifyArgumentError } from '../errors.js';
import { CHANNELS, type Channel } from '../providers/provider.js';

/** Every category: a row under this name applies to each category the user has no row of its own for. */
export const ALL_CATEGORIES = '*';

/** One user's choice for one category. */
export interface Preference {
  readonly userId: string;
  readonly category: string;
  /** The user does not want this category at all. */
  readonly optedOut: boolean;
  /** The channels the user accepts for it; `undefined`: whichever the message names. */
  readonly channels?: readonly Channel[];
  readonly updatedAt: Date;
}

export interface PreferenceUpdate {
  /** @default - unchanged (false for a new row) */
  readonly optedOut?: boolean;
  /** `null` clears the choice (back to "whichever the message names"). @default - unchanged */
  readonly channels?: readonly Channel[] | null;
}

interface PreferenceRow {
  user_id: string;
  category: string;
  opted_out: boolean;
  channels: string[] | null;
  updated_at: Date;
}

function toPreference(row: PreferenceRow): Preference {
  return {
    userId: row.user_id,
    category: row.category,
    optedOut: row.opted_out,
    ...(row.channels ? { channels: row.channels as Channel[] } : {}),
    updatedAt: row.updated_at,
  };
}

function checkKey(userId: unknown, category: unknown): void {
  if (typeof userId !== 'string' || userId.length === 0 || userId.length > 256) throw new InvalidNotifyArgumentError('user id', 'pass a non-empty string of at most 256 characters');
  if (typeof category !== 'string' || !/^(\*|[a-z0-9][a-z0-9_.:-]{0,63})$/i.test(category)) {
    throw new InvalidNotifyArgumentError(`category ${JSON.stringify(category)}`, "use letters, digits, '_', '.', ':' or '-' (at most 64), or '*' for every category");
  }
}

function checkChannels(channels: readonly unknown[]): void {
  for (const channel of channels) {
    if (!(CHANNELS as readonly unknown[]).includes(channel)) throw new InvalidNotifyArgumentError(`channel ${JSON.stringify(channel)}`, `use one of ${CHANNELS.join(', ')}`);
  }
}

/**
 * Preferences per user and category in PostgreSQL (`fw_notify_preferences`). Pass the database or the business
 * transaction: a preference changed in a transaction that rolls back is not changed.
 */
export class PreferenceStore {
  constructor(private readonly db: Queryable) {}

  /** The row of exactly this category, if the user has one. */
  public async get(userId: string, category: string): Promise<Preference | undefined> {
    checkKey(userId, category);
    const row = await this.db.maybeOne<PreferenceRow>(sql`SELECT * FROM fw_notify_preferences WHERE user_id = ${userId} AND category = ${category}`);
    return row ? toPreference(row) : undefined;
  }

  /** What applies to `category`: its own row, else the user's `'*'` row, else nothing (the defaults). */
  public async effective(userId: string, category: string): Promise<Preference | undefined> {
    checkKey(userId, category);
    const rows = await this.db.many<PreferenceRow>(
      sql`SELECT * FROM fw_notify_preferences WHERE user_id = ${userId} AND category IN (${category}, ${ALL_CATEGORIES}) ORDER BY (category = ${ALL_CATEGORIES})`,
    );
    return rows[0] ? toPreference(rows[0]) : undefined;
  }

  /**
   * What applies to each user and category, in one query (the dispatcher's lookup for a batch of outbox rows): the
   * same answer as `effective` for each pair, in the order given.
   */
  public async effectiveMany(keys: readonly { readonly userId: string; readonly category: string }[]): Promise<(Preference | undefined)[]> {
    if (keys.length === 0) return [];
    for (const key of keys) checkKey(key.userId, key.category);
    const users = [...new Set(keys.map((key) => key.userId))];
    const categories = [...new Set([...keys.map((key) => key.category), ALL_CATEGORIES])];
    const rows = await this.db.many<PreferenceRow>(sql`SELECT * FROM fw_notify_preferences WHERE user_id = ANY(${users}::text[]) AND category = ANY(${categories}::text[])`);
    const byKey = new Map(rows.map((row) => [JSON.stringify([row.user_id, row.category]), row]));
    return keys.map((key) => {
      const row = byKey.get(JSON.stringify([key.userId, key.category])) ?? byKey.get(JSON.stringify([key.userId, ALL_CATEGORIES]));
      return row ? toPreference(row) : undefined;
    });
  }

  /** Every row of the user (for a preferences page). */
  public async list(userId: string): Promise<Preference[]> {
    checkKey(userId, ALL_CATEGORIES);
    const rows = await this.db.many<PreferenceRow>(sql`SELECT * FROM fw_notify_preferences WHERE user_id = ${userId} ORDER BY category`);
    return rows.map(toPreference);
  }

  /** Creates or changes the row; fields not given keep their value. */
  public async set(userId: string, category: string, update: PreferenceUpdate): Promise<Preference> {
    checkKey(userId, category);
    if (update.channels) checkChannels(update.channels);
    const channels = update.channels === undefined ? undefined : update.channels === null ? null : [...update.channels];
    const row = await this.db.one<PreferenceRow>(sql`
      INSERT INTO fw_notify_preferences (user_id, category, opted_out, channels)
      VALUES (${userId}, ${category}, ${update.optedOut ?? false}, ${channels ?? null}::text[])
      ON CONFLICT (user_id, category) DO UPDATE SET
        opted_out = ${update.optedOut === undefined ? sql`fw_notify_preferences.opted_out` : sql`EXCLUDED.opted_out`},
        channels = ${channels === undefined ? sql`fw_notify_preferences.channels` : sql`EXCLUDED.channels`},
        updated_at = now()
      RETURNING *`);
    return toPreference(row);
  }

  public optOut(userId: string, category: string): Promise<Preference> {
    return this.set(userId, category, { optedOut: true });
  }

  public optIn(userId: string, category: string): Promise<Preference> {
    return this.set(userId, category, { optedOut: false });
  }
}
