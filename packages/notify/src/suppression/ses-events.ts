import type { Database } from '@framework/data';
import { recordDeliveryEvent, type DeliveryEventStatus } from '../dispatcher/dispatcher.js';
import { UnreadableEventError } from '../errors.js';
import type { SuppressionList } from './suppression-list.js';

/** One SES delivery event, as the configuration set's event destination publishes it. */
export interface SesDeliveryEvent {
  readonly eventType: 'Bounce' | 'Complaint' | 'Delivery' | 'Send' | 'Reject' | 'DeliveryDelay' | string;
  /** SES's MessageId (the `providerMessageId` of the delivery log). */
  readonly messageId: string;
  /** The message tags (the outbox row's idempotency key is one). */
  readonly tags: Readonly<Record<string, readonly string[]>>;
  /** The recipients the event is about. */
  readonly recipients: readonly string[];
  /** Whether the recipients must not be sent to again (permanent bounce, complaint). */
  readonly suppress: boolean;
  readonly raw: Readonly<Record<string, unknown>>;
}

type Json = Record<string, unknown>;

function asObject(value: unknown): Json | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

function emails(list: unknown): string[] {
  return Array.isArray(list) ? list.map((r) => asObject(r)?.['emailAddress']).filter((e): e is string => typeof e === 'string') : [];
}

/** Reads one SES event-publishing record (`eventType`) or identity notification (`notificationType`). */
export function parseSesEvent(record: unknown): SesDeliveryEvent {
  const event = asObject(record);
  const eventType = event?.['eventType'] ?? event?.['notificationType'];
  const mail = asObject(event?.['mail']);
  if (!event || typeof eventType !== 'string' || !mail) throw new UnreadableEventError('SES', 'no eventType/notificationType or mail object');
  const tags = Object.assign(Object.create(null) as Record<string, string[]>, asObject(mail['tags']) ?? {}) as Record<string, string[]>;
  const base = { eventType, messageId: String(mail['messageId'] ?? ''), tags, raw: event };
  if (eventType === 'Bounce') {
    const bounce = asObject(event['bounce']);
    // Only a permanent bounce suppresses: a transient one (mailbox full, greylisting) may succeed later.
    return { ...base, recipients: emails(bounce?.['bouncedRecipients']), suppress: bounce?.['bounceType'] === 'Permanent' };
  }
  if (eventType === 'Complaint') {
    const complaint = asObject(event['complaint']);
    // "not-spam" feedback is a user taking a complaint back, not a complaint.
    return { ...base, recipients: emails(complaint?.['complainedRecipients']), suppress: complaint?.['complaintFeedbackType'] !== 'not-spam' };
  }
  const recipients = asObject(event['delivery'])?.['recipients'] ?? mail['destination'];
  return { ...base, recipients: Array.isArray(recipients) ? recipients.filter((r): r is string => typeof r === 'string') : [], suppress: false };
}

/**
 * The SES records in a Lambda event: SNS (`Records[].Sns.Message`, the configuration set's SNS destination),
 * EventBridge (`detail`, source `aws.ses`), or a bare record.
 */
export function sesEventsOf(event: unknown): SesDeliveryEvent[] {
  const root = asObject(event);
  if (!root) throw new UnreadableEventError('SES', 'the event is not an object');
  if (Array.isArray(root['Records'])) {
    return root['Records'].map((record) => {
      const message = asObject(asObject(record)?.['Sns'])?.['Message'];
      if (typeof message !== 'string') throw new UnreadableEventError('SES', 'an SNS record without Sns.Message');
      let parsed: unknown;
      try {
        parsed = JSON.parse(message);
      } catch {
        throw new UnreadableEventError('SES', 'Sns.Message is not JSON');
      }
      return parseSesEvent(parsed);
    });
  }
  if (root['source'] === 'aws.ses' && asObject(root['detail'])) return [parseSesEvent(root['detail'])];
  return [parseSesEvent(root)];
}

/** The delivery-log status an SES event means for the message, with what the log keeps of it; none for the others. */
export function deliveryStatusOf(event: SesDeliveryEvent): { readonly status: DeliveryEventStatus; readonly detail: string } | undefined {
  const raw = event.raw;
  switch (event.eventType) {
    case 'Delivery':
      return { status: 'delivered', detail: String(asObject(raw['delivery'])?.['smtpResponse'] ?? 'delivered') };
    case 'Bounce': {
      const bounce = asObject(raw['bounce']);
      return { status: 'bounced', detail: `${String(bounce?.['bounceType'] ?? 'Undetermined')}/${String(bounce?.['bounceSubType'] ?? 'Undetermined')}` };
    }
    case 'Complaint':
      return { status: 'complained', detail: String(asObject(raw['complaint'])?.['complaintFeedbackType'] ?? 'complaint') };
    case 'Reject':
      // SES accepted the call, then refused to send the message (a virus found): it never left.
      return { status: 'failed', detail: `rejected by SES: ${String(asObject(raw['reject'])?.['reason'] ?? 'no reason given')}` };
    default:
      // Send, DeliveryDelay, Open, Click...: nothing final about the message.
      return undefined;
  }
}

export interface SesEventHandlerOptions {
  readonly suppressions: () => SuppressionList | Promise<SuppressionList>;
  /**
   * The database holding the outbox: each Delivery, Bounce, Complaint and Reject moves the row SES's message id
   * names to `delivered` / `bounced` / `complained` / `failed` and writes it to the delivery log with the message
   * id. @default - the delivery log is not written
   */
  readonly deliveryLog?: () => Database | Promise<Database>;
  /** Called with every event, after the suppression list and the delivery log. */
  readonly onEvent?: (event: SesDeliveryEvent) => Promise<void> | void;
}

/**
 * The delivery-events handler: permanent bounces and complaints put their recipients on the suppression list, and
 * with `deliveryLog` every final event is recorded on its outbox row. Export it as the `main` of the function the
 * infra subscribes to the delivery-events topic.
 */
export function sesEventHandler(options: SesEventHandlerOptions): (event: unknown) => Promise<{ readonly suppressed: number; readonly logged: number }> {
  return async (event) => {
    const list = await options.suppressions();
    const db = options.deliveryLog ? await options.deliveryLog() : undefined;
    let suppressed = 0;
    let logged = 0;
    for (const record of sesEventsOf(event)) {
      if (record.suppress) {
        const reason = record.eventType === 'Complaint' ? 'complaint' : 'bounce';
        for (const address of record.recipients) {
          await list.add('email', address, reason, { eventType: record.eventType, messageId: record.messageId });
          suppressed += 1;
        }
      }
      const outcome = db && record.messageId ? deliveryStatusOf(record) : undefined;
      // An event for a message this outbox did not send (another app on the configuration set) changes nothing.
      if (db && outcome && (await recordDeliveryEvent(db, { providerMessageId: record.messageId, ...outcome }))) logged += 1;
      await options.onEvent?.(record);
    }
    return { suppressed, logged };
  };
}
