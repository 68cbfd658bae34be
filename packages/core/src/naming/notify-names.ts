import { NamingError } from '../errors.js';
import { fitName } from './fit-name.js';
import { NAME_LIMITS } from './limits.js';

/**
 * Names of the notify infrastructure (`@framework/notify`, built by infra's `NotifyChannels`), computed here like every
 * deployed name: the construct, the dispatcher's environment and the outputs read them, nothing re-derives them.
 *
 * | resource | name |
 * |---|---|
 * | SES configuration set | `{project}-{stage}-notify` |
 * | SNS topic of SES delivery events | `{project}-{stage}-notify-events` |
 * | dispatcher queue / its DLQ | `{project}-{stage}-notify-dispatch` / `...-dispatch-dlq` |
 */
export interface NotifyNames {
  readonly configurationSet: string;
  readonly eventsTopic: string;
  readonly dispatchQueue: string;
  readonly dispatchDeadLetterQueue: string;
}

const NAME_CHARS = /^[A-Za-z0-9_-]+$/;

/** SES configuration set names: letters, digits, `_` and `-`, at most 64 characters. */
const SES_CONFIGURATION_SET_LIMIT = 64;
/** SNS topic names: at most 256 characters. */
const SNS_TOPIC_LIMIT = 256;

export function notifyNames(project: string, stage: string): NotifyNames {
  if (!NAME_CHARS.test(project) || !NAME_CHARS.test(stage)) {
    throw new NamingError(`project ${JSON.stringify(project)} and stage ${JSON.stringify(stage)} must be letters, digits, "-" or "_"`);
  }
  const base = `${project}-${stage}-notify`;
  return {
    configurationSet: fitName(base, SES_CONFIGURATION_SET_LIMIT),
    eventsTopic: fitName(`${base}-events`, SNS_TOPIC_LIMIT),
    dispatchQueue: fitName(`${base}-dispatch`, NAME_LIMITS.sqsQueue),
    dispatchDeadLetterQueue: fitName(`${base}-dispatch-dlq`, NAME_LIMITS.sqsQueue),
  };
}

/** The variables the notify infrastructure sets on the dispatcher (and the suppression handler). */
export const NOTIFY_VARIABLES = {
  /** SES configuration set the SES provider sends with. */
  configurationSet: 'FW_NOTIFY_CONFIGURATION_SET',
  /** The verified identity (domain or address) mail is sent from. */
  emailIdentity: 'FW_NOTIFY_EMAIL_IDENTITY',
  /** ARN of the topic SES publishes delivery events to. */
  eventsTopicArn: 'FW_NOTIFY_EVENTS_TOPIC_ARN',
  /** URL of the dispatcher queue. */
  dispatchQueueUrl: 'FW_NOTIFY_QUEUE_URL',
} as const;

/** CloudFormation output keys of the notify infrastructure. */
export const NOTIFY_OUTPUTS = {
  configurationSet: 'NotifyConfigurationSet',
  emailIdentity: 'NotifyEmailIdentity',
  eventsTopicArn: 'NotifyEventsTopicArn',
  dispatchQueueUrl: 'NotifyQueueUrl',
  dispatchDeadLetterQueueUrl: 'NotifyDeadLetterQueueUrl',
} as const;
