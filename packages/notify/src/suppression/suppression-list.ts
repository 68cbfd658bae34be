import { sql, type Queryable } from '@framework/data';
import { InvalidNotifyArgumentError, ProviderError, RecipientSuppressedError } from '../errors.js';
import { CHANNELS, type Channel } from '../providers/provider.js';

/** Why an address is suppressed. */
export type SuppressionReason = 'bounce' | 'complaint' | 'opted-out' | 'subscription-expired';

export interface Suppression {
  readonly channel: Channel;
  readonly address: string;
  readonly reason: SuppressionReason;
  /** What the provider reported (bounce type, feedback type, keyword...). */
  readonly detail?: unknown;
  readonly createdAt: Date;
}

interface SuppressionRow {
  channel: Channel;
  address: string;
  reason: SuppressionReason;
  detail: unknown;
  created_at: Date;
}

/**
 * Email addresses compare without case (the local part is case-sensitive by the RFC, but no mailbox provider treats
 * it so, and a bounce report may change the case); phone numbers are E.164 without spaces.
 */
export function normalizeAddress(channel: Channel, address: string): string {
  if (channel === 'email') return address.trim().toLowerCase();
  if (channel === 'sms' || channel === 'whatsapp') return address.replace(/[\s().-]/g, '');
  return address;
}

function check(channel: unknown, address: unknown): void {
  if (!(CHANNELS as readonly unknown[]).includes(channel)) throw new InvalidNotifyArgumentError(`channel ${JSON.stringify(channel)}`, `use one of ${CHANNELS.join(', ')}`);
  if (typeof address !== 'string' || address.length === 0 || address.length > 2048) throw new InvalidNotifyArgumentError('address', 'pass a non-empty string of at most 2048 characters');
}

/**
 * The addresses that must not be sent to (`fw_notify_suppressions`), fed by bounce and complaint events, STOP
 * keywords and expired push subscriptions; every provider of this package checks it before calling its API. Ours
 * rather than only SES's account-level list: it covers SMS, WhatsApp and push too, and it is the same list locally.
 */
export class SuppressionList {
  constructor(private readonly db: Queryable) {}

  public async find(channel: Channel, address: string): Promise<Suppression | undefined> {
    check(channel, address);
    const row = await this.db.maybeOne<SuppressionRow>(sql`SELECT * FROM fw_notify_suppressions WHERE channel = ${channel} AND address = ${normalizeAddress(channel, address)}`);
    return row ? { channel: row.channel, address: row.address, reason: row.reason, ...(row.detail == null ? {} : { detail: row.detail }), createdAt: row.created_at } : undefined;
  }

  /** Adds (or re-dates) the address; the newest reason wins. */
  public async add(channel: Channel, address: string, reason: SuppressionReason, detail?: unknown): Promise<void> {
    check(channel, address);
    await this.db.query(sql`
      INSERT INTO fw_notify_suppressions (channel, address, reason, detail) VALUES (${channel}, ${normalizeAddress(channel, address)}, ${reason}, ${detail === undefined ? null : sql.json(detail)})
      ON CONFLICT (channel, address) DO UPDATE SET reason = EXCLUDED.reason, detail = EXCLUDED.detail, created_at = now()`);
  }

  /** Removes the address (START keyword, the user fixed their mailbox); whether it was there. */
  public async remove(channel: Channel, address: string): Promise<boolean> {
    check(channel, address);
    const { rowCount } = await this.db.query(sql`DELETE FROM fw_notify_suppressions WHERE channel = ${channel} AND address = ${normalizeAddress(channel, address)}`);
    return rowCount > 0;
  }

  /**
   * Throws a non-retryable `ProviderError` (cause: `RecipientSuppressedError`) when the address is suppressed; what
   * providers call before their API.
   */
  public async assertSendable(provider: string, channel: Channel, address: string): Promise<void> {
    const found = await this.find(channel, address);
    if (found) {
      const cause = new RecipientSuppressedError(channel, address, found.reason);
      throw new ProviderError(provider, cause.message, { retryable: false, cause });
    }
  }
}
