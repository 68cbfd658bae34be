import { sql, type Queryable } from '@framework/data';
import { InvalidNotificationError } from '../errors.js';
import { CHANNELS, type Channel } from '../providers/provider.js';
import type { TemplateData, TemplateRegistry } from '../templates/define-notification.js';
import { templateFor } from '../templates/render.js';
import { OUTBOX_TABLE } from './outbox-row.js';

/** A recipient: the address of each channel it can be reached on. */
export interface Recipient {
  /**
   * The user the message is for: the dispatcher applies their preferences (opt-out, channel choice) for the
   * message's category when it delivers. Needs the outbox's recipient migration (`NOTIFY_RECIPIENT_MIGRATION_SQL`).
   * @default - none: no preferences apply (a guest, an address outside the user base)
   */
  readonly userId?: string;
  readonly email?: string;
  /** E.164, e.g. `+14155550100`. */
  readonly phone?: string;
  /** @default - `phone` */
  readonly whatsapp?: string;
  /** A push subscription or endpoint id. */
  readonly push?: string;
  /** @default - the template's default locale */
  readonly locale?: string;
}

/** What `notify.send` writes. */
export interface SendInput<T extends TemplateRegistry, K extends keyof T & string> {
  readonly to: Recipient;
  readonly template: K;
  readonly data: TemplateData<T[K]>;
  /** @default - every channel the template renders and the recipient has an address for */
  readonly channels?: readonly Channel[];
  /** The preferences and digests key; `critical` bypasses preferences. @default 'transactional' */
  readonly category?: string;
  /**
   * The caller's key: a second `send` with the same key (a retried request) writes nothing new for the channels
   * already written. @default - none: every call writes rows
   */
  readonly idempotencyKey?: string;
}

/** What `notify.send` wrote: the outbox row ids (hand them to `dispatch` after the commit). */
export interface Queued {
  readonly ids: readonly string[];
}

/** Where the notifier sends the ids of committed rows so the dispatcher delivers them now (a queue of the app). */
export interface DispatchQueue {
  send(body: unknown): Promise<unknown>;
}

/** The body of a dispatcher queue message. */
export interface DispatchMessage {
  readonly outboxIds: readonly string[];
}

export interface NotifierOptions<T extends TemplateRegistry> {
  readonly templates: T;
}

/** `notify.send(tx, ...)` and `notify.dispatch(...)`, typed by the app's templates. */
export interface Notifier<T extends TemplateRegistry> {
  /**
   * Writes one outbox row per channel in the caller's transaction: the rows commit with the business write or not
   * at all. Nothing is sent here; the dispatcher sends after the commit.
   */
  send<K extends keyof T & string>(tx: Queryable, input: SendInput<T, K>): Promise<Queued>;
  /**
   * After the commit: asks the dispatcher to deliver these rows now. Optional: the sweeper delivers rows nobody
   * dispatched (a process that died between the commit and this call) a little later.
   */
  dispatch(queue: DispatchQueue, ...queued: readonly Queued[]): Promise<void>;
}

const CATEGORY = /^[a-z0-9][a-z0-9._-]{0,62}$/;
const LOCALE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
const MAX_IDEMPOTENCY_KEY = 255;
const MAX_USER_ID = 256;

/** The address of `recipient` on `channel`. */
function addressOn(recipient: Recipient, channel: Channel): string | undefined {
  switch (channel) {
    case 'email': return recipient.email;
    case 'sms': return recipient.phone;
    case 'whatsapp': return recipient.whatsapp ?? recipient.phone;
    case 'push': return recipient.push;
  }
}

/** Creates the app's notifier over its templates (`src/notifications/`). */
export function createNotifier<T extends TemplateRegistry>(options: NotifierOptions<T>): Notifier<T> {
  const { templates } = options;
  return {
    async send(tx, input) {
      if (typeof input !== 'object' || input === null || typeof input.to !== 'object' || input.to === null) {
        throw new InvalidNotificationError('pass { to: { email?, phone?, ... }, template, data }.');
      }
      const template = templateFor(templates, input.template);
      const category = input.category ?? 'transactional';
      if (!CATEGORY.test(category)) throw new InvalidNotificationError(`category ${JSON.stringify(category)} must be lowercase letters, digits, ".", "_" or "-" (at most 63).`);
      if (input.to.locale !== undefined && !LOCALE.test(input.to.locale)) throw new InvalidNotificationError(`locale ${JSON.stringify(input.to.locale)} is not a BCP 47 tag such as "en" or "pt-BR".`);
      if (input.to.userId !== undefined && (typeof input.to.userId !== 'string' || input.to.userId.length === 0 || input.to.userId.length > MAX_USER_ID)) {
        throw new InvalidNotificationError(`to.userId must be a non-empty string of at most ${MAX_USER_ID} characters (the id your preferences are stored under).`);
      }
      if (input.idempotencyKey !== undefined && (typeof input.idempotencyKey !== 'string' || input.idempotencyKey.length === 0 || input.idempotencyKey.length > MAX_IDEMPOTENCY_KEY)) {
        throw new InvalidNotificationError(`idempotencyKey must be a non-empty string of at most ${MAX_IDEMPOTENCY_KEY} characters.`);
      }
      for (const channel of input.channels ?? []) {
        if (!CHANNELS.includes(channel)) throw new InvalidNotificationError(`unknown channel ${JSON.stringify(channel)}; use ${CHANNELS.join(', ')}.`);
        templateFor(templates, input.template, channel);
        if (!addressOn(input.to, channel)) throw new InvalidNotificationError(`channel ${channel} was asked for but the recipient has no ${channel === 'sms' ? 'phone' : channel} address.`);
      }
      const channels = input.channels ?? template.channels.filter((channel) => addressOn(input.to, channel));
      if (channels.length === 0) throw new InvalidNotificationError(`the recipient has no address on any channel of template "${input.template}" (${template.channels.join(', ')}).`);
      const data = JSON.stringify(input.data ?? {});
      // One statement for every channel: one round trip inside the caller's transaction, whatever the channel count.
      // Without a user id the statement names no user_id column, so an app that has not applied the recipient
      // migration keeps working as before.
      const userId = input.to.userId;
      const values = [...new Set(channels)].map((channel) => [channel, addressOn(input.to, channel), input.template, data, category, input.to.locale ?? null, input.idempotencyKey ?? null, ...(userId === undefined ? [] : [userId])]);
      const rows = await tx.many<{ id: string }>(sql`
        INSERT INTO ${sql.identifier(OUTBOX_TABLE)} (channel, recipient, template, data, category, locale, idempotency_key${userId === undefined ? sql.empty : sql`, user_id`})
        VALUES ${sql.values(values)}
        ON CONFLICT (idempotency_key, channel) WHERE idempotency_key IS NOT NULL DO NOTHING
        RETURNING id`);
      const ids = rows.map((row) => row.id);
      return { ids };
    },
    async dispatch(queue, ...queued) {
      const outboxIds = queued.flatMap((q) => q.ids);
      if (outboxIds.length === 0) return;
      await queue.send({ outboxIds } satisfies DispatchMessage);
    },
  };
}
