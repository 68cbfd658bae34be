import type { Codec } from '../config/codec.js';
import { notifyNames, type NotifyNames } from '../naming/notify-names.js';
import type { ConfigProblem } from '../errors.js';
import type { CodecKit, IntentKindModule, KindCheckContext } from './intent-kind.js';

/**
 * The cloud side of `@framework/notify` (`infrastructure.notify`): the stack creates the SES identity and
 * configuration set, the delivery-events topic, and grants the send permissions to the dispatcher units only. The
 * dispatcher is made of units the app already declares: its queue (the one `notify.dispatch` sends to), its sweeper
 * cron and its delivery-events function. No second queue: the app's queue is the dispatcher queue.
 */
export interface NotifyIntent {
  /** The id of the queue (in `queues`) whose consumer is the dispatcher (`outboxQueueConsumer`). */
  readonly queue: string;
  /** The id of the schedule (in `schedules`) whose cron sweeps the outbox (`outboxSweeper`): granted the send permissions too. @default - none */
  readonly sweeper?: string;
  /** The id of the function (`src/functions/<id>.ts`, `sesEventHandler`) subscribed to the SES delivery-events topic. @default - none */
  readonly eventsFunction?: string;
  /** The domain mail is sent from (an SES domain identity: publish its DKIM records). Exactly one of `emailDomain`, `emailAddress`. */
  readonly emailDomain?: string;
  /** The one address mail is sent from (an SES email identity). Exactly one of `emailDomain`, `emailAddress`. */
  readonly emailAddress?: string;
  /** End User Messaging origination identities (phone number or pool ARNs) the dispatcher may send SMS from. @default - no SMS permission */
  readonly smsOriginationArns?: readonly string[];
  /** End User Messaging Social WhatsApp phone-number-id ARNs the dispatcher may send from. @default - no WhatsApp permission */
  readonly whatsappPhoneNumberArns?: readonly string[];
  /** SNS platform application ARNs whose endpoints the dispatcher may publish to. @default - no push permission */
  readonly pushPlatformApplicationArns?: readonly string[];
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const EMAIL = /^[^@\s]{1,64}@[^@\s]+\.[^@\s]+$/;

/** The codec of `infrastructure.notify` (built from the kit: this module stays free of io-ts at run time). */
export function notifyCodec({ c, id, functionId }: CodecKit): Codec<NotifyIntent> {
  const arns = (service: string, resource: string) =>
    c.array(c.pattern(`an ARN of ${service} such as arn:aws:${service}:us-east-1:123456789012:${resource}...`, new RegExp(`^arn:aws[a-z-]*:${service}:[a-z0-9-]+:\\d{12}:${resource}\\S+$`)), { maxLength: 100 });
  return c.struct<NotifyIntent>('the notify intent { queue, emailDomain | emailAddress }', {
    queue: c.required(id),
    sweeper: c.optional(id),
    eventsFunction: c.optional(functionId),
    emailDomain: c.optional(c.pattern('a domain name such as mail.example.com', DOMAIN)),
    emailAddress: c.optional(c.pattern('an email address such as no-reply@example.com', EMAIL)),
    smsOriginationArns: c.optional(arns('sms-voice', '')),
    whatsappPhoneNumberArns: c.optional(arns('social-messaging', 'phone-number-id/')),
    pushPlatformApplicationArns: c.optional(arns('sns', 'app/')),
  });
}

/** The notify infrastructure of one stage (absent without `infrastructure.notify`). */
export interface NotifyDefinition {
  /** The dispatcher queue's intent id (a queue of the app). */
  readonly queue: string;
  readonly sweeper?: string;
  readonly eventsFunction?: string;
  readonly email: { readonly domain: string } | { readonly address: string };
  readonly smsOriginationArns: readonly string[];
  readonly whatsappPhoneNumberArns: readonly string[];
  readonly pushPlatformApplicationArns: readonly string[];
  readonly names: NotifyNames;
}

/** `infrastructure.notify` names units the app declares, and exactly one sender identity. */
function checkNotify(notify: NotifyIntent, { intentIds, functionFiles, functionsDir }: KindCheckContext): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const at = 'infrastructure.notify';
  if ((notify.emailDomain === undefined) === (notify.emailAddress === undefined)) {
    problems.push({ code: 'FW_ERR_CONFIG_INVALID_VALUE', path: at, message: 'expected exactly one of "emailDomain" (mail from a domain, e.g. mail.example.com) or "emailAddress" (mail from one address)' });
  }
  if (!intentIds('queues').includes(notify.queue)) {
    problems.push({ code: 'FW_ERR_CONFIG_INVALID_VALUE', path: `${at}.queue`, message: `no queue intent has id ${JSON.stringify(notify.queue)}: name the queue whose consumer is the dispatcher (src/queues/<id>.ts exporting outboxQueueConsumer), e.g. { id: 'notify-outbox' } in infrastructure.queues` });
  }
  if (notify.sweeper !== undefined && !intentIds('schedules').includes(notify.sweeper)) {
    problems.push({ code: 'FW_ERR_CONFIG_INVALID_VALUE', path: `${at}.sweeper`, message: `no schedule intent has id ${JSON.stringify(notify.sweeper)}: name the cron exporting outboxSweeper, or leave sweeper out` });
  }
  if (notify.eventsFunction !== undefined && !functionFiles.some((f) => f.id === notify.eventsFunction)) {
    problems.push({ code: 'FW_ERR_CONFIG_INVALID_VALUE', path: `${at}.eventsFunction`, message: `no function file ${functionsDir}/${notify.eventsFunction}.ts: create it exporting sesEventHandler(...), or leave eventsFunction out` });
  }
  return problems;
}

/** `infrastructure.notify`: SES identity, configuration set and events topic, and the dispatcher's permissions. */
export const notifyKind: IntentKindModule<NotifyIntent, NotifyDefinition | undefined, never, 'notify'> = {
  configKey: 'notify',
  codec: notifyCodec,
  check: checkNotify,
  outputs: [],
  build: (intent, { project, stage }) =>
    intent === undefined
      ? undefined
      : {
          queue: intent.queue,
          ...(intent.sweeper !== undefined ? { sweeper: intent.sweeper } : {}),
          ...(intent.eventsFunction !== undefined ? { eventsFunction: intent.eventsFunction } : {}),
          // checkNotify (run by defineApp) made sure exactly one is set.
          email: intent.emailDomain !== undefined ? { domain: intent.emailDomain } : { address: intent.emailAddress! },
          smsOriginationArns: intent.smsOriginationArns ?? [],
          whatsappPhoneNumberArns: intent.whatsappPhoneNumberArns ?? [],
          pushPlatformApplicationArns: intent.pushPlatformApplicationArns ?? [],
          names: notifyNames(project, stage),
        },
  // The dispatcher's variables are set by the construct on the dispatcher units only, not on every function.
  environment: () => ({}),
  units: () => [],
};
