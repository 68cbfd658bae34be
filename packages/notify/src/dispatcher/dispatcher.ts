import { sql, type Database, type SqlFragment } from '@framework/data';
import { NoProviderError, ProviderError, RecipientSuppressedError, TemplateChannelMissingError, TemplateNotFoundError, TemplateRenderError } from '../errors.js';
import { DELIVERY_LOG_TABLE, OUTBOX_TABLE, type DeliveryLogStatus, type OutboxRow } from '../outbox/outbox-row.js';
import { decideChannels, DEFAULT_CRITICAL_CATEGORIES } from '../preferences/decide-channels.js';
import { PreferenceStore, type Preference } from '../preferences/preference-store.js';
import { idempotencyKeyOf, type Channel, type NotificationProvider } from '../providers/provider.js';
import type { TemplateRegistry } from '../templates/define-notification.js';
import { renderMessage } from '../templates/render.js';
import { retryDelaySeconds } from './backoff.js';

export interface DispatcherOptions {
  readonly db: Database;
  readonly templates: TemplateRegistry;
  /** The providers; the first one that lists a channel delivers it. */
  readonly providers: readonly NotificationProvider[];
  /** Attempts per row before it is `failed`. @default 5 */
  readonly maxAttempts?: number;
  /** First retry delay (doubled per attempt, jittered). @default 5 */
  readonly retryBaseSeconds?: number;
  /** @default 900 */
  readonly retryMaxSeconds?: number;
  /**
   * How long a claim holds a row: a dispatcher that dies mid-send leaves it `sending`, and after this long another
   * dispatcher claims it again (and sends with the same idempotency key). Keep it above the provider timeout.
   * @default 60
   */
  readonly claimSeconds?: number;
  /**
   * The categories that reach the user whatever their preferences say (password reset, security alerts).
   * @default DEFAULT_CRITICAL_CATEGORIES (`['critical']`)
   */
  readonly criticalCategories?: readonly string[];
  /** Where failures are reported. @default - console.warn */
  readonly log?: (message: string, fields: Record<string, unknown>) => void;
}

/** What one dispatch run did. */
export interface DispatchReport {
  readonly sent: number;
  readonly retried: number;
  readonly failed: number;
  /** Rows not sent because of the user's preferences (`skipped`) or the suppression list (`suppressed`). */
  readonly skipped: number;
}

type Outcome = 'sent' | 'retry' | 'failed' | 'skipped';

/** Errors no retry can fix: the row fails at once. */
function isPermanent(error: unknown): boolean {
  if (error instanceof ProviderError) return !error.retryable;
  return error instanceof TemplateNotFoundError || error instanceof TemplateChannelMissingError || error instanceof TemplateRenderError || error instanceof NoProviderError;
}

/**
 * Delivers outbox rows. A row is claimed (`FOR UPDATE SKIP LOCKED`, in a short transaction of its own: concurrent
 * dispatchers never take the same row), marked `sending` with a claim deadline, sent with `idempotencyKeyOf(id)`,
 * then marked `sent`, retried later with backoff, or `failed` after `maxAttempts`. Every change is in the delivery log.
 */
export class Dispatcher {
  private readonly maxAttempts: number;
  private readonly backoff: { baseSeconds: number; maxSeconds: number };
  private readonly claimSeconds: number;
  private readonly log: (message: string, fields: Record<string, unknown>) => void;

  constructor(private readonly options: DispatcherOptions) {
    this.maxAttempts = options.maxAttempts ?? 5;
    this.backoff = { baseSeconds: options.retryBaseSeconds ?? 5, maxSeconds: options.retryMaxSeconds ?? 900 };
    this.claimSeconds = options.claimSeconds ?? 60;
    this.log = options.log ?? ((message, fields) => console.warn(message, fields));
  }

  /** Delivers these rows if they are still due (the queue consumer: ids from `notify.dispatch`). */
  async dispatchIds(ids: readonly string[]): Promise<DispatchReport> {
    if (ids.length === 0) return { sent: 0, retried: 0, failed: 0, skipped: 0 };
    const rows = await this.claim(sql`id = ANY(${[...ids]}::uuid[])`, ids.length);
    return this.deliverAll(rows);
  }

  /**
   * Delivers every row that is due and older than `olderThanSeconds` (the sweeper: rows nobody dispatched, retries
   * whose time came, claims that expired), `batchSize` at a time until none is left or `maxRows` were handled.
   */
  async sweep(options: { readonly olderThanSeconds?: number; readonly batchSize?: number; readonly maxRows?: number } = {}): Promise<DispatchReport> {
    const batchSize = options.batchSize ?? 50;
    const maxRows = options.maxRows ?? 1000;
    const olderThan = options.olderThanSeconds ?? 0;
    const total = { sent: 0, retried: 0, failed: 0, skipped: 0 };
    for (let handled = 0; handled < maxRows; ) {
      const rows = await this.claim(sql`created_at <= now() - make_interval(secs => ${olderThan})`, Math.min(batchSize, maxRows - handled));
      if (rows.length === 0) break;
      handled += rows.length;
      const report = await this.deliverAll(rows);
      total.sent += report.sent;
      total.retried += report.retried;
      total.skipped += report.skipped;
      total.failed += report.failed;
    }
    return total;
  }

  private async claim(filter: SqlFragment, limit: number): Promise<OutboxRow[]> {
    const table = sql.identifier(OUTBOX_TABLE);
    return this.options.db.transaction((tx) =>
      tx.many<OutboxRow>(sql`
        UPDATE ${table} SET status = 'sending', attempts = attempts + 1, updated_at = now(),
          next_attempt_at = now() + make_interval(secs => ${this.claimSeconds})
        WHERE id IN (
          SELECT id FROM ${table}
          WHERE status IN ('queued', 'sending') AND next_attempt_at <= now() AND ${filter}
          ORDER BY next_attempt_at
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
        RETURNING *`),
    );
  }

  private async deliverAll(rows: readonly OutboxRow[]): Promise<DispatchReport> {
    const preferences = await this.preferencesOf(rows);
    const outcomes = await Promise.all(rows.map((row) => this.deliver(row, preferences.get(row))));
    return {
      sent: outcomes.filter((o) => o === 'sent').length,
      retried: outcomes.filter((o) => o === 'retry').length,
      failed: outcomes.filter((o) => o === 'failed').length,
      skipped: outcomes.filter((o) => o === 'skipped').length,
    };
  }

  private isCritical(category: string): boolean {
    return (this.options.criticalCategories ?? DEFAULT_CRITICAL_CATEGORIES).includes(category);
  }

  /**
   * The preference that applies to each row with a user id, read at delivery (not at send): a user who opts out
   * after the business write but before the dispatch is not sent to. One query per batch; none for critical rows or
   * rows without a user.
   */
  private async preferencesOf(rows: readonly OutboxRow[]): Promise<Map<OutboxRow, Preference | undefined>> {
    const subject = rows.filter((row) => row.user_id && !this.isCritical(row.category));
    const found = await new PreferenceStore(this.options.db).effectiveMany(subject.map((row) => ({ userId: row.user_id!, category: row.category })));
    return new Map(subject.map((row, index) => [row, found[index]]));
  }

  private providerFor(channel: Channel): NotificationProvider {
    const provider = this.options.providers.find((p) => p.channels.includes(channel));
    if (!provider) throw new NoProviderError(channel);
    return provider;
  }

  private async deliver(row: OutboxRow, preference: Preference | undefined): Promise<Outcome> {
    let providerName: string | undefined;
    if (row.attempts > this.maxAttempts) {
      // The last attempt's dispatcher died before it could write the outcome: the claim expired with no attempt left.
      await this.record(row, 'failed', { status: 'failed', detail: `no outcome recorded for the last of ${this.maxAttempts} attempts (the dispatcher stopped mid-send)` });
      return 'failed';
    }
    const skip = decideChannels({ category: row.category, requested: [row.channel], preference, criticalCategories: this.options.criticalCategories ?? DEFAULT_CRITICAL_CATEGORIES }).skipped[0];
    if (skip) {
      await this.record(row, 'skipped', { status: 'skipped', detail: `${skip.reason}: user ${row.user_id} ${skip.reason === 'opted-out' ? 'opted out of' : `did not choose ${row.channel} for`} category ${row.category}` });
      return 'skipped';
    }
    try {
      const provider = this.providerFor(row.channel);
      providerName = provider.name;
      const message = await renderMessage(this.options.templates, { id: row.id, channel: row.channel, to: row.recipient, template: row.template, data: row.data, category: row.category, locale: row.locale ?? undefined });
      const result = await provider.send(message, { idempotencyKey: idempotencyKeyOf(row.id) });
      await this.record(row, 'sent', { status: 'sent', provider: provider.name, providerMessageId: result.providerMessageId });
      return 'sent';
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      if (error instanceof ProviderError && error.cause instanceof RecipientSuppressedError) {
        // Not a failure of the message: the address asked (STOP, complaint) or proved (bounce) not to be sent to.
        await this.record(row, 'suppressed', { status: 'suppressed', provider: providerName, detail: `${error.cause.reason}: ${detail}` });
        return 'skipped';
      }
      if (isPermanent(error) || row.attempts >= this.maxAttempts) {
        this.log('notification failed', { outboxId: row.id, channel: row.channel, attempts: row.attempts, error: detail });
        await this.record(row, 'failed', { status: 'failed', provider: providerName, detail });
        return 'failed';
      }
      const delay = retryDelaySeconds(row.attempts, this.backoff);
      await this.record(row, 'retry', { status: 'queued', provider: providerName, detail, retryInSeconds: delay });
      return 'retry';
    }
  }

  private async record(
    row: OutboxRow,
    logStatus: DeliveryLogStatus,
    change: { status: 'sent' | 'queued' | 'failed' | 'skipped' | 'suppressed'; provider?: string | undefined; providerMessageId?: string; detail?: string; retryInSeconds?: number },
  ): Promise<void> {
    await this.options.db.transaction(async (tx) => {
      // Only the claim this dispatcher holds is written: a row that another dispatcher re-claimed after this claim
      // expired (attempts moved on) keeps that dispatcher's outcome.
      await tx.query(sql`
        UPDATE ${sql.identifier(OUTBOX_TABLE)} SET status = ${change.status}, updated_at = now(),
          provider = COALESCE(${change.provider ?? null}, provider),
          provider_message_id = COALESCE(${change.providerMessageId ?? null}, provider_message_id),
          last_error = ${change.detail ?? null},
          next_attempt_at = now() + make_interval(secs => ${change.retryInSeconds ?? 0})
        WHERE id = ${row.id} AND status = 'sending' AND attempts = ${row.attempts}`);
      await tx.query(sql`
        INSERT INTO ${sql.identifier(DELIVERY_LOG_TABLE)} (outbox_id, status, attempt, provider, provider_message_id, detail)
        VALUES (${row.id}, ${logStatus}, ${row.attempts}, ${change.provider ?? null}, ${change.providerMessageId ?? null}, ${change.detail ?? null})`);
    });
  }
}

/** A provider's later word on a sent message. */
export type DeliveryEventStatus = 'delivered' | 'bounced' | 'complained' | 'failed';

/**
 * Records a provider's later event for a sent message (SES delivery/bounce/complaint events, SMS delivery receipts):
 * the row found by the provider's message id moves to `delivered`, `bounced`, `complained` or `failed`, and the log
 * says so with the provider's message id. Events may arrive out of order (SNS does not keep it): a late `delivered`
 * is logged but does not overwrite a bounce or a complaint already recorded.
 */
export async function recordDeliveryEvent(db: Database, event: { readonly providerMessageId: string; readonly status: DeliveryEventStatus; readonly detail?: string }): Promise<boolean> {
  return db.transaction(async (tx) => {
    const row = await tx.maybeOne<{ id: string; attempts: number; provider: string | null }>(sql`
      UPDATE ${sql.identifier(OUTBOX_TABLE)} SET updated_at = now(),
        status = CASE WHEN ${event.status}::text = 'delivered' AND status IN ('bounced', 'complained') THEN status ELSE ${event.status}::text END
      WHERE provider_message_id = ${event.providerMessageId}
      RETURNING id, attempts, provider`);
    if (!row) return false;
    await tx.query(sql`
      INSERT INTO ${sql.identifier(DELIVERY_LOG_TABLE)} (outbox_id, status, attempt, provider, provider_message_id, detail)
      VALUES (${row.id}, ${event.status}, ${row.attempts}, ${row.provider}, ${event.providerMessageId}, ${event.detail ?? null})`);
    return true;
  });
}
