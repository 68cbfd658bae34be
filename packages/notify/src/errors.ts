import { FrameworkError } from '@framework/core/names';
import { HttpError } from '@framework/runtime';

/**
 * Errors of @framework/notify. Every one has a stable `code`; README.md's error table lists each with its cause and
 * fix, and `test/errors.test.ts` keeps the two in step.
 */
export class NotifyError extends FrameworkError {}

/** `notify.send` was called with input it cannot write (no recipient, an unknown channel, a bad category). */
export class InvalidNotificationError extends NotifyError {
  public static readonly CODE = 'FW_ERR_NOTIFY_INVALID_SEND';
  constructor(problem: string) {
    super(InvalidNotificationError.CODE, `Invalid notification: ${problem}`);
  }
}

/** No template module with that name in the project's `src/notifications/`. */
export class TemplateNotFoundError extends NotifyError {
  public static readonly CODE = 'FW_ERR_NOTIFY_TEMPLATE_NOT_FOUND';
  constructor(name: string, known: readonly string[]) {
    super(
      TemplateNotFoundError.CODE,
      `Notification template "${name}" not found (known: ${known.length ? known.join(', ') : 'none'}). Add src/notifications/${name}.ts exporting defineNotification({ ... }) and register it.`,
    );
  }
}

/** The template has no renderer for a channel the notification asked for. */
export class TemplateChannelMissingError extends NotifyError {
  public static readonly CODE = 'FW_ERR_NOTIFY_TEMPLATE_CHANNEL_MISSING';
  constructor(name: string, channel: string) {
    super(
      TemplateChannelMissingError.CODE,
      `Notification template "${name}" has no ${channel} renderer. Add one to its defineNotification({ ... }) or leave ${channel} out of channels.`,
    );
  }
}

/** A template threw while rendering, or its MJML does not validate: no retry can fix it. */
export class TemplateRenderError extends NotifyError {
  public static readonly CODE = 'FW_ERR_NOTIFY_TEMPLATE_RENDER';
  constructor(name: string, channel: string, cause: unknown) {
    super(TemplateRenderError.CODE, `Notification template "${name}" failed to render for ${channel}: ${cause instanceof Error ? cause.message : String(cause)}. Fix the template (or the data the notification was sent with); the row is marked failed.`, { cause });
  }
}

/** No provider is configured for a channel the dispatcher must deliver. */
export class NoProviderError extends NotifyError {
  public static readonly CODE = 'FW_ERR_NOTIFY_NO_PROVIDER';
  constructor(channel: string) {
    super(NoProviderError.CODE, `No notification provider handles the ${channel} channel. Pass one in createDispatcher({ providers }) (locally, the local inbox handles every channel).`);
  }
}

/** A provider refused a message. `retryable` says whether a later attempt may succeed. */
export class ProviderError extends NotifyError {
  public static readonly CODE = 'FW_ERR_NOTIFY_PROVIDER';
  public readonly provider: string;
  public readonly retryable: boolean;
  constructor(provider: string, message: string, options: { retryable: boolean; cause?: unknown }) {
    super(ProviderError.CODE, `Provider ${provider} refused the message: ${message}`, { cause: options.cause });
    this.provider = provider;
    this.retryable = options.retryable;
  }
}

/** The unsubscribe secret is missing or too short to sign tokens. */
export class UnsubscribeSecretError extends NotifyError {
  public static readonly CODE = 'FW_ERR_NOTIFY_UNSUBSCRIBE_SECRET';
  constructor(problem: string) {
    super(UnsubscribeSecretError.CODE, `The unsubscribe secret ${problem}. Pass at least 32 random bytes (e.g. \`openssl rand -base64 48\`) as \`secret\`, kept in a secret store, never in the code.`);
  }
}

/** 400 `UNSUBSCRIBE_TOKEN_INVALID`: the token is malformed, was signed with another secret, or was altered. */
export class InvalidUnsubscribeTokenError extends HttpError {
  public static readonly CODE = 'UNSUBSCRIBE_TOKEN_INVALID';
  constructor(problem: string) {
    super(400, InvalidUnsubscribeTokenError.CODE, `This unsubscribe link is not valid (${problem}). Use the link from the most recent message, or change your preferences in your account.`);
  }
}

/** 410 `UNSUBSCRIBE_TOKEN_EXPIRED`: a genuine token past its expiry. */
export class ExpiredUnsubscribeTokenError extends HttpError {
  public static readonly CODE = 'UNSUBSCRIBE_TOKEN_EXPIRED';
  constructor(expiredAt: Date) {
    super(410, ExpiredUnsubscribeTokenError.CODE, `This unsubscribe link expired at ${expiredAt.toISOString()}. Use the link from a more recent message, or change your preferences in your account.`);
  }
}

/** 400 `UNSUBSCRIBE_ONE_CLICK_BODY`: a POST to the one-click endpoint without the RFC 8058 body. */
export class OneClickBodyError extends HttpError {
  public static readonly CODE = 'UNSUBSCRIBE_ONE_CLICK_BODY';
  constructor() {
    super(400, OneClickBodyError.CODE, 'A one-click unsubscribe POST must carry the form body "List-Unsubscribe=One-Click" (RFC 8058). Send it as application/x-www-form-urlencoded.');
  }
}

/** A preference or suppression call got a value it cannot store (empty user id, unknown channel, ...). */
export class InvalidNotifyArgumentError extends NotifyError {
  public static readonly CODE = 'FW_ERR_NOTIFY_INVALID_ARGUMENT';
  constructor(what: string, problem: string) {
    super(InvalidNotifyArgumentError.CODE, `Invalid ${what}: ${problem}.`);
  }
}

/**
 * The recipient may not be sent to on this channel: a suppressed address (bounce or complaint), a phone number that
 * answered STOP, an expired push subscription. Providers throw it as the `cause` of a non-retryable `ProviderError`,
 * so the dispatcher marks the delivery `failed` at once.
 */
export class RecipientSuppressedError extends NotifyError {
  public static readonly CODE = 'FW_ERR_NOTIFY_RECIPIENT_SUPPRESSED';
  public readonly channel: string;
  public readonly reason: string;
  constructor(channel: string, address: string, reason: string) {
    super(RecipientSuppressedError.CODE, `Not sending ${channel} to ${maskAddress(address)}: it is on the suppression list (${reason}). ${SUPPRESSION_FIX[reason] ?? 'Remove it from the suppression list only if the recipient asked for it.'}`);
    this.channel = channel;
    this.reason = reason;
  }
}

/** A provider was given a message without the part its channel needs (the `cause` of a non-retryable `ProviderError`). */
export class MessageNotSendableError extends NotifyError {
  public static readonly CODE = 'FW_ERR_NOTIFY_MESSAGE_NOT_SENDABLE';
  constructor(channel: string, problem: string) {
    super(MessageNotSendableError.CODE, `Cannot send this ${channel} message: ${problem}.`);
  }
}

/** A delivery-event or inbound-message handler got an event it cannot read. */
export class UnreadableEventError extends NotifyError {
  public static readonly CODE = 'FW_ERR_NOTIFY_UNREADABLE_EVENT';
  constructor(source: string, problem: string) {
    super(UnreadableEventError.CODE, `Cannot read the ${source} event: ${problem}. Subscribe the handler to the topic or rule the notify infrastructure creates (raw message delivery off).`);
  }
}

/** A digest run was asked for a window it cannot use. */
export class InvalidDigestWindowError extends NotifyError {
  public static readonly CODE = 'FW_ERR_NOTIFY_DIGEST_WINDOW';
  constructor(problem: string) {
    super(InvalidDigestWindowError.CODE, `Invalid digest window: ${problem}. Use a duration such as '1h' or '1d' that divides a day (or a whole number of days).`);
  }
}

const SUPPRESSION_FIX: Readonly<Record<string, string>> = Object.freeze({
  bounce: 'The address bounced permanently: ask the user for a working address.',
  complaint: 'The recipient marked a message as spam: do not send again unless they opt in.',
  'opted-out': 'The number answered STOP: it is sent to again only after it answers START (or opts in again).',
  'subscription-expired': 'The push subscription is gone: the client must subscribe again.',
});

/** Enough of an address to recognize it in a log, not enough to harvest it. */
export function maskAddress(address: string): string {
  const at = address.indexOf('@');
  if (at > 0) return `${address.slice(0, 1)}***${address.slice(at)}`;
  if (address.length > 4) return `***${address.slice(-4)}`;
  return '***';
}

/** `send` threw for some users of a digest run; their items stay pending for the next run, the others were sent. */
export class DigestFailedError extends NotifyError {
  public static readonly CODE = 'FW_ERR_NOTIFY_DIGEST_FAILED';
  public readonly userIds: readonly string[];
  constructor(category: string, userIds: readonly string[], cause: unknown) {
    super(DigestFailedError.CODE, `The ${category} digest could not be sent to ${userIds.length} user(s) (first cause: ${(cause as Error)?.message ?? String(cause)}); their items stay pending and the next run sends them. Fix the digest's send function or template.`, { cause });
    this.userIds = userIds;
  }
}

/** Every error code of this package, with its cause: kept in step with README.md by a test. */
export const NOTIFY_ERROR_CODES = {
  [InvalidNotificationError.CODE]: 'notify.send with no recipient, an unknown channel or a bad category.',
  [TemplateNotFoundError.CODE]: 'No registered template of that name.',
  [TemplateChannelMissingError.CODE]: 'The template has no renderer for a requested channel.',
  [TemplateRenderError.CODE]: 'A template threw while rendering, or its MJML does not validate.',
  [NoProviderError.CODE]: 'No provider for a channel the dispatcher must deliver.',
  [ProviderError.CODE]: 'A provider refused a message (see retryable).',
  [RecipientSuppressedError.CODE]: 'The address is on the suppression list (bounce, complaint, STOP, expired push subscription).',
  [MessageNotSendableError.CODE]: 'The message lacks the part its channel needs.',
  [InvalidNotifyArgumentError.CODE]: 'A preference, suppression or digest call got a value it cannot store.',
  [UnsubscribeSecretError.CODE]: 'The unsubscribe signing secret is missing or shorter than 32 bytes.',
  [UnreadableEventError.CODE]: 'A delivery-event or inbound-message handler got an event it cannot read.',
  [InvalidDigestWindowError.CODE]: 'A digest window that does not divide a day.',
  [DigestFailedError.CODE]: 'A digest send function threw for some users.',
  [InvalidUnsubscribeTokenError.CODE]: 'A malformed or altered unsubscribe token (400).',
  [ExpiredUnsubscribeTokenError.CODE]: 'A genuine unsubscribe token past its expiry (410).',
  [OneClickBodyError.CODE]: 'A one-click unsubscribe POST without the RFC 8058 body (400).',
} as const;
