import { Database, sql } from '@framework/data';
import { migrate, parseMigration } from '@framework/data/migrations';
import { CHANNELS_MIGRATION, defineNotification, escapeHtml, localize, NOTIFY_MIGRATION_SQL, NOTIFY_RECIPIENT_MIGRATION_SQL, ProviderError, type DeliveryResult, type NotificationProvider, type OutgoingMessage, type SendOptions } from '../../src/index.js';

const quiet = { warn: () => undefined };

/** A database on `connection` with the package's migrations applied in the order an app applies them. */
export async function outboxDatabase(connection: ConstructorParameters<typeof Database>[0]['connection']): Promise<Database> {
  const db = new Database({ connection, logger: quiet });
  await migrate(db, {
    migrations: [
      parseMigration('0001_notify_outbox.sql', NOTIFY_MIGRATION_SQL),
      parseMigration('0002_notify_channels.sql', CHANNELS_MIGRATION),
      parseMigration('0003_notify_recipient.sql', NOTIFY_RECIPIENT_MIGRATION_SQL),
    ],
  });
  return db;
}

export async function emptyOutbox(db: Database): Promise<void> {
  await db.query(sql`DELETE FROM fw_notify_delivery_log`);
  await db.query(sql`DELETE FROM fw_notify_outbox`);
  await db.query(sql`DELETE FROM fw_notify_preferences`);
  await db.query(sql`DELETE FROM fw_notify_suppressions`);
}

/** Makes every queued or claimed row due now, as time passing would (retry delays, expired claims). */
export async function timePasses(db: Database): Promise<void> {
  await db.query(sql`UPDATE fw_notify_outbox SET next_attempt_at = now() - interval '1 second', created_at = created_at - interval '1 hour' WHERE status IN ('queued', 'sending')`);
}

export const templates = {
  'task-assigned': defineNotification<{ title: string; assignee: string }>({
    email: {
      subject: (d, { locale }) => localize(locale, { en: `Assigned: ${d.title}`, fr: `Assignée : ${d.title}` }),
      mjml: (d, { locale }) => `<mjml><mj-body><mj-section><mj-column><mj-text>${escapeHtml(localize(locale, { en: `${d.assignee}, you have a new task:`, fr: `${d.assignee}, une nouvelle tâche :` }))} <b>${escapeHtml(d.title)}</b></mj-text></mj-column></mj-section></mj-body></mjml>`,
    },
    sms: (d, { locale }) => localize(locale, { en: `New task: ${d.title}`, fr: `Nouvelle tâche : ${d.title}` }),
  }),
};

/**
 * A provider that honours idempotency keys as SES or a WhatsApp API would: a key it already accepted is answered
 * with the first message id and not delivered again. `calls` counts every call, `delivered` what reached a person.
 */
export class KeyHonouringProvider implements NotificationProvider {
  readonly name = 'recording';
  readonly channels = ['email', 'sms', 'whatsapp', 'push'] as const;
  readonly calls: { message: OutgoingMessage; key: string }[] = [];
  readonly delivered: OutgoingMessage[] = [];
  private readonly byKey = new Map<string, string>();
  /** Per recipient: how many calls fail first (retryable), or 'permanent'. */
  failures = new Map<string, number | 'permanent'>();
  /** Called after the provider accepted, before it answers (a test makes the dispatcher "die" here). */
  afterAccept: (() => Promise<void>) | undefined;

  async send(message: OutgoingMessage, options: SendOptions): Promise<DeliveryResult> {
    this.calls.push({ message, key: options.idempotencyKey });
    const failure = this.failures.get(message.to);
    if (failure === 'permanent') {
      throw new ProviderError(this.name, 'mailbox does not exist', { retryable: false });
    }
    if (typeof failure === 'number' && failure > 0) {
      this.failures.set(message.to, failure - 1);
      throw new Error('connection reset');
    }
    let id = this.byKey.get(options.idempotencyKey);
    if (!id) {
      id = `prov-${this.byKey.size + 1}`;
      this.byKey.set(options.idempotencyKey, id);
      this.delivered.push(message);
    }
    await this.afterAccept?.();
    return { providerMessageId: id };
  }
}
