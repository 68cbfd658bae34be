import { FrameworkError } from '@framework/core/names';

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

/** Every error code of this package, with its cause: kept in step with README.md by a test. */
export const NOTIFY_ERROR_CODES = {
  [InvalidNotificationError.CODE]: 'notify.send with no recipient, an unknown channel or a bad category.',
  [TemplateNotFoundError.CODE]: 'No registered template of that name.',
  [TemplateChannelMissingError.CODE]: 'The template has no renderer for a requested channel.',
  [NoProviderError.CODE]: 'No provider for a channel the dispatcher must deliver.',
  [ProviderError.CODE]: 'A provider refused a message (see retryable).',
} as const;
