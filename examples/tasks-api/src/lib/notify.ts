import { getDatabase } from '@framework/data';
import { createNotifier, LocalChannelRules, localInboxAvailable, localInboxProviders, SuppressionList, WhatsAppSessionStore, type NotificationProvider } from '@framework/notify';
import { receiptNotification } from '@framework-pro/billing';
import taskAssigned from '../notifications/task-assigned.js';

/** The app's notification templates by name (`src/notifications/<name>.ts`). */
export const templates = { 'task-assigned': taskAssigned, 'billing-receipt': receiptNotification };

/** `notify.send(tx, ...)` in a transaction, `notify.dispatch(queue, queued)` after its commit. */
export const notify = createNotifier({ templates });

/** The queue the dispatcher consumes (`src/queues/notify-outbox.ts`). */
export const NOTIFY_QUEUE = 'notify-outbox';

/**
 * Where notifications go: under fw dev, the local inbox (email over SMTP, SMS as messages; the dev console's Inbox
 * tab), behind the cloud's channel rules: a number that answered STOP (`src/functions/inbound-sms.ts`) or an address
 * that bounced is refused as End User Messaging and SES refuse it, and a WhatsApp message goes out as the kind the
 * 24-hour window allows. Deployed, the cloud providers of @framework/notify (SES for email, End User Messaging for SMS).
 */
export function providers(): readonly NotificationProvider[] {
  if (localInboxAvailable()) {
    const db = getDatabase();
    return localInboxProviders({ rules: new LocalChannelRules({ suppressions: new SuppressionList(db), sessions: new WhatsAppSessionStore(db) }) });
  }
  throw new Error('no cloud notification providers configured for this stage yet: add them in src/lib/notify.ts');
}
