import { App, Duration, Stack, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NOTIFY_OUTPUTS, NOTIFY_VARIABLES, notifyNames } from '@framework/core';
import { expect } from 'chai';
import { AwsSolutionsChecks } from 'cdk-nag';
import { applyNagSuppressions, NotifyChannels, type NotifyChannelsProps } from '../../src/index.js';

const SMS_POOL = 'arn:aws:sms-voice:us-east-1:123456789012:pool/pool-0123456789abcdef';
const WHATSAPP_NUMBER = 'arn:aws:social-messaging:us-east-1:123456789012:phone-number-id/976c72a700aac43eaf573ae050example';
const PUSH_APP = 'arn:aws:sns:us-east-1:123456789012:app/GCM/tasks-android';

function fn(stack: Stack, id: string): lambda.Function {
  return new lambda.Function(stack, id, { runtime: lambda.Runtime.NODEJS_22_X, handler: 'index.main', code: lambda.Code.fromInline('exports.main = async () => {}'), timeout: Duration.seconds(30) });
}

function build(props: Partial<NotifyChannelsProps> = {}, checks = false, more?: (notify: NotifyChannels, other: lambda.Function) => void) {
  const app = new App();
  const stack = new Stack(app, 'tasks-prod', { env: { account: '123456789012', region: 'us-east-1' } });
  const dispatcher = fn(stack, 'Dispatcher');
  const eventsHandler = fn(stack, 'SuppressionHandler');
  const other = fn(stack, 'Other');
  const notify = new NotifyChannels(stack, 'Notify', {
    project: 'tasks',
    stage: 'prod',
    emailIdentity: { domain: 'mail.tasks.example.com' },
    dispatcher,
    eventsHandler,
    smsOriginationArns: [SMS_POOL],
    whatsappPhoneNumberArns: [WHATSAPP_NUMBER],
    pushPlatformApplicationArns: [PUSH_APP],
    ...props,
  });
  more?.(notify, other);
  if (checks) {
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
    applyNagSuppressions(stack);
  }
  return { app, stack, notify, dispatcher, other, template: Template.fromStack(stack) };
}

/** Every IAM statement attached to the role of a function (by the function's logical id prefix). */
function statementsOf(template: Template, functionId: string): Array<{ Action: string | string[]; Resource: unknown }> {
  const policies = template.findResources('AWS::IAM::Policy');
  return Object.entries(policies)
    .filter(([, policy]) => JSON.stringify((policy as { Properties: { Roles: unknown } }).Properties.Roles).includes(`${functionId}ServiceRole`))
    .flatMap(([, policy]) => (policy as { Properties: { PolicyDocument: { Statement: Array<{ Action: string | string[]; Resource: unknown }> } } }).Properties.PolicyDocument.Statement);
}

const actionsOf = (statements: Array<{ Action: string | string[] }>) => statements.flatMap((s) => [s.Action].flat()).sort();

describe('NotifyChannels (the notify infrastructure)', () => {
  const built = build();
  const { template } = built;
  const names = notifyNames('tasks', 'prod');

  it('creates the SES identity and a configuration set named by core, the identity using the set by default', () => {
    expect(names.configurationSet).to.equal('tasks-prod-notify');
    template.hasResourceProperties('AWS::SES::ConfigurationSet', { Name: 'tasks-prod-notify' });
    template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'mail.tasks.example.com', ConfigurationSetAttributes: { ConfigurationSetName: Match.anyValue() } });
  });

  it('publishes bounces, complaints and deliveries to an SNS topic, to which the suppression handler is subscribed', () => {
    template.hasResourceProperties('AWS::SNS::Topic', { TopicName: 'tasks-prod-notify-events' });
    template.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      EventDestination: {
        Enabled: true,
        MatchingEventTypes: Match.arrayWith(['delivery', 'bounce', 'complaint', 'reject']),
        SnsDestination: { TopicARN: Match.anyValue() },
      },
    });
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'lambda', Endpoint: { 'Fn::GetAtt': [Match.stringLikeRegexp('^SuppressionHandler'), 'Arn'] } });
  });

  it('creates the dispatcher queue with a dead-letter queue, consumed by the dispatcher with partial batch failures', () => {
    template.hasResourceProperties('AWS::SQS::Queue', { QueueName: 'tasks-prod-notify-dispatch', RedrivePolicy: { maxReceiveCount: 5, deadLetterTargetArn: Match.anyValue() } });
    template.hasResourceProperties('AWS::SQS::Queue', { QueueName: 'tasks-prod-notify-dispatch-dlq', MessageRetentionPeriod: 1_209_600 });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', { FunctionName: { Ref: Match.stringLikeRegexp('^Dispatcher') }, FunctionResponseTypes: ['ReportBatchItemFailures'] });
  });

  it('grants the send actions to the dispatcher only, each on the resources named', () => {
    const statements = statementsOf(template, 'Dispatcher');
    const send = (action: string) => statements.find((s) => [s.Action].flat().includes(action));
    expect(JSON.stringify(send('ses:SendEmail')!.Resource)).to.contain(':identity/').and.to.contain(':configuration-set/');
    expect(send('sms-voice:SendTextMessage')!.Resource).to.equal(SMS_POOL);
    expect(send('social-messaging:SendWhatsAppMessage')!.Resource).to.equal(WHATSAPP_NUMBER);
    expect(send('sns:Publish')!.Resource).to.equal('arn:aws:sns:us-east-1:123456789012:endpoint/GCM/tasks-android/*');
    expect(JSON.stringify(statements)).not.to.contain('"Resource":"*"');
    for (const other of ['Other', 'SuppressionHandler']) {
      const actions = actionsOf(statementsOf(template, other));
      expect(actions.filter((a) => /^(ses|sms-voice|social-messaging|sns):/.test(a)), other).to.deep.equal([]);
    }
  });

  it('gives the dispatcher the variables named by core and writes the outputs with core\'s keys', () => {
    const dispatcher = Object.values(template.findResources('AWS::Lambda::Function')).find((f) => JSON.stringify(f).includes(NOTIFY_VARIABLES.configurationSet));
    const variables = (dispatcher as { Properties: { Environment: { Variables: Record<string, unknown> } } }).Properties.Environment.Variables;
    expect(Object.keys(variables).sort()).to.deep.equal(Object.values(NOTIFY_VARIABLES).sort());
    const outputs = Object.keys(template.findOutputs('*'));
    for (const key of Object.values(NOTIFY_OUTPUTS)) expect(outputs).to.include(key);
  });

  it('grantEnqueue lets another function send to the dispatcher queue (and nothing else)', () => {
    const { template: withEnqueue } = build({}, false, (notify, other) => notify.grantEnqueue(other));
    const actions = actionsOf(statementsOf(withEnqueue, 'Other'));
    expect(actions).to.include('sqs:SendMessage');
    expect(actions.filter((a) => !a.startsWith('sqs:'))).to.deep.equal([]);
  });

  it('passes the AwsSolutions checks (cdk-nag) with the acknowledged findings only', () => {
    const { app } = build({}, true);
    expect(() => app.synth()).not.to.throw();
  });

  it('refuses an identity that is neither one domain nor one address, and ARNs of the wrong service', () => {
    const refused = (props: Partial<NotifyChannelsProps>) => {
      try {
        build(props);
      } catch (error) {
        return (error as { code?: string; message: string }).code;
      }
      return undefined;
    };
    expect(refused({ emailIdentity: { domain: 'not a domain' } })).to.equal('FW_ERR_INFRA_INVALID_PROP');
    expect(refused({ emailIdentity: { email: 'nobody' } })).to.equal('FW_ERR_INFRA_INVALID_PROP');
    expect(refused({ emailIdentity: { domain: 'a.example.com', email: 'x@example.com' } as never })).to.equal('FW_ERR_INFRA_INVALID_PROP');
    expect(refused({ whatsappPhoneNumberArns: [SMS_POOL] })).to.equal('FW_ERR_INFRA_INVALID_PROP');
    expect(refused({ pushPlatformApplicationArns: ['arn:aws:sns:us-east-1:123456789012:endpoint/GCM/x/y'] })).to.equal('FW_ERR_INFRA_INVALID_PROP');
    expect(refused({ maxReceiveCount: 0 })).to.equal('FW_ERR_INFRA_INVALID_PROP');
  });
});
