import { CfnOutput, Duration, Stack, Token } from 'aws-cdk-lib/core';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as route53 from 'aws-cdk-lib/aws-route53';
import * as ses from 'aws-cdk-lib/aws-ses';
import * as sns from 'aws-cdk-lib/aws-sns';
import { LambdaSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { NOTIFY_OUTPUTS, NOTIFY_VARIABLES, notifyNames, type NotifyNames } from '@framework/core';
import { Construct } from 'constructs';
import { acknowledgeNag, acknowledgeNagFindings } from '../checks/nag-suppressions.js';
import { InfraError } from '../errors.js';

/** Props of `NotifyChannels`. */
export interface NotifyChannelsProps {
  readonly project: string;
  readonly stage: string;
  /** The domain mail is sent from (DKIM records are created when `hostedZone` is given), or one address. */
  readonly emailIdentity: { readonly domain: string; readonly hostedZone?: route53.IPublicHostedZone } | { readonly email: string };
  /**
   * The dispatcher function: the only one granted the send actions, given the queue as its event source and the
   * notify variables. @default - none (grant later with `grantDispatch`)
   */
  readonly dispatcher?: lambda.IFunction & { addEnvironment(key: string, value: string): unknown };
  /** The suppression handler, subscribed to the SES delivery-events topic. @default - none */
  readonly eventsHandler?: lambda.IFunction & { addEnvironment(key: string, value: string): unknown };
  /** End User Messaging origination identities (phone number / pool ARNs) the dispatcher may send SMS from. @default - no SMS grant */
  readonly smsOriginationArns?: readonly string[];
  /** End User Messaging Social WhatsApp phone number id ARNs the dispatcher may send from. @default - no WhatsApp grant */
  readonly whatsappPhoneNumberArns?: readonly string[];
  /** SNS platform application ARNs whose endpoints the dispatcher may publish to. @default - no SNS push grant */
  readonly pushPlatformApplicationArns?: readonly string[];
  /**
   * The app's queue to use as the dispatcher queue (`FrameworkStack` passes the queue `infrastructure.notify.queue`
   * names, whose consumer is already connected): no second queue is created, and `dispatcher` gets no event source.
   * @default - a dispatcher queue and dead-letter queue of its own
   */
  readonly queue?: sqs.IQueue;
  /** The dead-letter queue of `queue`, for the outputs. @default - none */
  readonly deadLetterQueue?: sqs.IQueue;
  /** Receives before a message goes to the dead-letter queue. @default 5 */
  readonly maxReceiveCount?: number;
  /** Dispatcher queue visibility timeout: at least the dispatcher's timeout. @default Duration.seconds(60) */
  readonly visibilityTimeout?: Duration;
}

const SES_EVENTS: readonly ses.EmailSendingEvent[] = [
  ses.EmailSendingEvent.SEND,
  ses.EmailSendingEvent.DELIVERY,
  ses.EmailSendingEvent.BOUNCE,
  ses.EmailSendingEvent.COMPLAINT,
  ses.EmailSendingEvent.REJECT,
  ses.EmailSendingEvent.RENDERING_FAILURE,
  ses.EmailSendingEvent.DELIVERY_DELAY,
];

function checkArns(name: string, arns: readonly string[] | undefined, service: string, resourcePrefix: string): void {
  for (const arn of arns ?? []) {
    if (Token.isUnresolved(arn)) continue;
    const parts = arn.split(':');
    if (parts.length < 6 || parts[0] !== 'arn' || parts[2] !== service || !parts.slice(5).join(':').startsWith(resourcePrefix)) {
      throw new InfraError('FW_ERR_INFRA_INVALID_PROP', `NotifyChannels ${name}: ${JSON.stringify(arn)} is not an ARN of ${service} ${resourcePrefix}... Pass the ARN the ${service} console shows (arn:aws:${service}:<region>:<account>:${resourcePrefix}...).`);
    }
  }
}

/**
 * The cloud side of `@framework/notify`: the SES identity and a configuration set whose delivery events (bounces,
 * complaints, deliveries...) go to an SNS topic that feeds the suppression handler; the dispatcher queue with its
 * dead-letter queue; and the send permissions, granted to the dispatcher only, each on the resources named (the
 * identity and configuration set, the SMS origination identities, the WhatsApp phone numbers, the push endpoints of
 * the platform applications). Names, variables and output keys come from core (`notifyNames`, `NOTIFY_VARIABLES`,
 * `NOTIFY_OUTPUTS`).
 */
export class NotifyChannels extends Construct {
  public readonly names: NotifyNames;
  public readonly identity: ses.EmailIdentity;
  public readonly configurationSet: ses.ConfigurationSet;
  public readonly eventsTopic: sns.Topic;
  public readonly queue: sqs.IQueue;
  public readonly deadLetterQueue?: sqs.IQueue;
  /** The variables the dispatcher gets (also for functions that read them otherwise). */
  public readonly environment: Readonly<Record<string, string>>;
  private readonly props: NotifyChannelsProps;

  constructor(scope: Construct, id: string, props: NotifyChannelsProps) {
    super(scope, id);
    this.props = props;
    const identity = props.emailIdentity as { domain?: string; email?: string; hostedZone?: route53.IPublicHostedZone };
    if (!identity || (identity.domain === undefined) === (identity.email === undefined)) {
      throw new InfraError('FW_ERR_INFRA_INVALID_PROP', 'NotifyChannels emailIdentity: pass exactly one of { domain } or { email }.');
    }
    if (identity.email !== undefined && !Token.isUnresolved(identity.email) && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(identity.email)) {
      throw new InfraError('FW_ERR_INFRA_INVALID_PROP', `NotifyChannels emailIdentity.email: ${JSON.stringify(identity.email)} is not an email address.`);
    }
    if (identity.domain !== undefined && !Token.isUnresolved(identity.domain) && !/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i.test(identity.domain)) {
      throw new InfraError('FW_ERR_INFRA_INVALID_PROP', `NotifyChannels emailIdentity.domain: ${JSON.stringify(identity.domain)} is not a domain name (e.g. mail.example.com).`);
    }
    if (props.maxReceiveCount !== undefined && !(Number.isInteger(props.maxReceiveCount) && props.maxReceiveCount >= 1 && props.maxReceiveCount <= 1000)) {
      throw new InfraError('FW_ERR_INFRA_INVALID_PROP', `NotifyChannels maxReceiveCount: ${props.maxReceiveCount} is not an integer from 1 to 1000 (SQS's range).`);
    }
    checkArns('smsOriginationArns', props.smsOriginationArns, 'sms-voice', '');
    checkArns('whatsappPhoneNumberArns', props.whatsappPhoneNumberArns, 'social-messaging', 'phone-number-id/');
    checkArns('pushPlatformApplicationArns', props.pushPlatformApplicationArns, 'sns', 'app/');
    this.names = notifyNames(props.project, props.stage);

    this.configurationSet = new ses.ConfigurationSet(this, 'ConfigurationSet', {
      configurationSetName: this.names.configurationSet,
      reputationMetrics: true,
      sendingEnabled: true,
    });
    this.identity = new ses.EmailIdentity(this, 'Identity', {
      identity: identity.email !== undefined ? ses.Identity.email(identity.email) : identity.hostedZone ? ses.Identity.publicHostedZone(identity.hostedZone) : ses.Identity.domain(identity.domain!),
      configurationSet: this.configurationSet,
    });

    this.eventsTopic = new sns.Topic(this, 'EventsTopic', { topicName: this.names.eventsTopic, enforceSSL: true });
    this.configurationSet.addEventDestination('Events', { destination: ses.EventDestination.snsTopic(this.eventsTopic), events: [...SES_EVENTS] });

    if (props.queue) {
      this.queue = props.queue;
      this.deadLetterQueue = props.deadLetterQueue;
    } else {
      const deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', {
        queueName: this.names.dispatchDeadLetterQueue,
        retentionPeriod: Duration.days(14),
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      acknowledgeNag(deadLetterQueue, 'noDeadLetterQueue');
      this.deadLetterQueue = deadLetterQueue;
      this.queue = new sqs.Queue(this, 'Queue', {
        queueName: this.names.dispatchQueue,
        visibilityTimeout: props.visibilityTimeout ?? Duration.seconds(60),
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: props.maxReceiveCount ?? 5 },
      });
    }

    this.environment = {
      [NOTIFY_VARIABLES.configurationSet]: this.configurationSet.configurationSetName,
      [NOTIFY_VARIABLES.emailIdentity]: this.identity.emailIdentityName,
      [NOTIFY_VARIABLES.eventsTopicArn]: this.eventsTopic.topicArn,
      [NOTIFY_VARIABLES.dispatchQueueUrl]: this.queue.queueUrl,
    };

    if (props.dispatcher) {
      this.addDispatcher(props.dispatcher);
      // The app's queue already has its consumer; a queue of our own needs the dispatcher connected.
      if (!props.queue) props.dispatcher.addEventSource(new SqsEventSource(this.queue, { reportBatchItemFailures: true }));
    }
    if (props.eventsHandler) this.eventsTopic.addSubscription(new LambdaSubscription(props.eventsHandler));

    const out = (key: string, value: string, description: string) => new CfnOutput(this, key, { key, value, description });
    out(NOTIFY_OUTPUTS.configurationSet, this.configurationSet.configurationSetName, `SES configuration set (${NOTIFY_VARIABLES.configurationSet})`);
    out(NOTIFY_OUTPUTS.emailIdentity, this.identity.emailIdentityName, `SES identity mail is sent from (${NOTIFY_VARIABLES.emailIdentity})`);
    out(NOTIFY_OUTPUTS.eventsTopicArn, this.eventsTopic.topicArn, 'SNS topic of SES delivery events (bounces, complaints)');
    out(NOTIFY_OUTPUTS.dispatchQueueUrl, this.queue.queueUrl, `Notify dispatcher queue (${NOTIFY_VARIABLES.dispatchQueueUrl})`);
    if (this.deadLetterQueue) out(NOTIFY_OUTPUTS.dispatchDeadLetterQueueUrl, this.deadLetterQueue.queueUrl, 'Notify dispatcher dead-letter queue');
  }

  /**
   * Another unit that delivers outbox rows (the sweeper cron): the dispatcher's permissions (`grantDispatch`) and its
   * variables. A function that only writes the outbox needs neither.
   */
  public addDispatcher(fn: lambda.IFunction & { addEnvironment(key: string, value: string): unknown }): void {
    this.grantDispatch(fn);
    for (const [key, value] of Object.entries(this.environment)) fn.addEnvironment(key, value);
  }

  /**
   * The dispatcher's permissions: `ses:SendEmail` on the identity and configuration set, `sms-voice:SendTextMessage` on
   * the origination identities, `social-messaging:SendWhatsAppMessage` on the phone numbers, `sns:Publish` on the
   * endpoints of the platform applications, and consuming the dispatcher queue. Nothing else gets them.
   */
  public grantDispatch(grantee: iam.IGrantable): void {
    const stack = Stack.of(this);
    const configurationSetArn = stack.formatArn({ service: 'ses', resource: 'configuration-set', resourceName: this.configurationSet.configurationSetName });
    iam.Grant.addToPrincipal({ grantee, actions: ['ses:SendEmail', 'ses:SendRawEmail'], resourceArns: [this.identity.emailIdentityArn, configurationSetArn] });
    if (this.props.smsOriginationArns?.length) iam.Grant.addToPrincipal({ grantee, actions: ['sms-voice:SendTextMessage'], resourceArns: [...this.props.smsOriginationArns] });
    if (this.props.whatsappPhoneNumberArns?.length) iam.Grant.addToPrincipal({ grantee, actions: ['social-messaging:SendWhatsAppMessage'], resourceArns: [...this.props.whatsappPhoneNumberArns] });
    if (this.props.pushPlatformApplicationArns?.length) {
      // An endpoint's ARN is its application's with `app/` replaced by `endpoint/` and the endpoint id appended.
      const endpoints = this.props.pushPlatformApplicationArns.map((arn) => `${arn.replace(':app/', ':endpoint/')}/*`);
      iam.Grant.addToPrincipal({ grantee, actions: ['sns:Publish'], resourceArns: endpoints });
      if (grantee.grantPrincipal instanceof Construct) acknowledgeNagFindings(grantee.grantPrincipal, 'notifyPushEndpoints', endpoints.map((arn) => `Resource::${arn}`));
    }
    this.queue.grantConsumeMessages(grantee);
  }

  /** Lets a function put messages on the dispatcher queue (what `notify.send` does after the commit). */
  public grantEnqueue(grantee: iam.IGrantable): void {
    this.queue.grantSendMessages(grantee);
  }
}
