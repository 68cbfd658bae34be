import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { defineApp, NOTIFY_OUTPUTS, NOTIFY_VARIABLES, notifyNames, type AppDefinition } from '@framework/core';
import { synthesizeApp, type FrameworkStack } from '../../src/index.js';
import { SMALL_APP, routeSource, tempProject } from '../helpers/temp-project.js';

const info = (kind: string) => `{ handlerInfo: { kind: '${kind}', scopes: [], middleware: [] } }`;
const SMS_POOL = 'arn:aws:sms-voice:us-east-1:123456789012:pool/pool-0123456789abcdef';

/** Every IAM statement of the policies attached to `role` (a role's logical id). */
function statementsOfRole(template: Template, roleLogicalId: string): Array<{ Action: string | string[]; Resource: unknown }> {
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((policy) => JSON.stringify((policy as { Properties: { Roles: unknown } }).Properties.Roles).includes(`"${roleLogicalId}"`))
    .flatMap((policy) => (policy as { Properties: { PolicyDocument: { Statement: Array<{ Action: string | string[]; Resource: unknown }> } } }).Properties.PolicyDocument.Statement);
}
const actionsOf = (statements: Array<{ Action: string | string[] }>) => new Set(statements.flatMap((s) => [s.Action].flat()));

describe('FrameworkStack builds NotifyChannels from infrastructure.notify', function () {
  this.timeout(300_000);
  let project: ReturnType<typeof tempProject>;
  let app: AppDefinition;
  let stack: FrameworkStack;
  let template: Template;
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-infra-notify-'));

  before(() => {
    project = tempProject({
      'src/routes/assign/post.ts': `export const main = Object.assign(async (_e: unknown, _c: unknown, service: any) => service.queues['notify-outbox'].send({}), ${info('http')});\n`,
      'src/routes/health/get.ts': routeSource(),
      'src/queues/notify-outbox.ts': `export const main = Object.assign(async () => ({ batchItemFailures: [] }), ${info('task')});\n`,
      'src/crons/notify-sweep.ts': `export const main = Object.assign(async () => undefined, ${info('task')});\n`,
      'src/functions/notify-events.ts': `export const main = Object.assign(async () => undefined, ${info('task')});\n`,
    });
    app = defineApp({
      ...SMALL_APP,
      rootDir: project.dir,
      infrastructure: {
        queues: [{ id: 'notify-outbox', maxReceiveCount: 5 }],
        schedules: [{ id: 'notify-sweep', schedule: { rate: '10 minutes' } }],
        functions: [{ id: 'notify-events' }],
        notify: { queue: 'notify-outbox', sweeper: 'notify-sweep', eventsFunction: 'notify-events', emailDomain: 'mail.example.com', smsOriginationArns: [SMS_POOL] },
      },
    });
    // With cdk-nag on (synthesizeApp's default): the notify resources pass the same checks as the rest.
    stack = synthesizeApp(app, { outdir }).stack;
    template = Template.fromStack(stack);
  });
  after(() => {
    project?.remove();
    fs.rmSync(outdir, { recursive: true, force: true });
  });

  const fnOf = (functionName: string) => stack.functions.get(functionName)!.function;
  // Route functions live in nested stacks: each function is read from the template of its own stack.
  const templateOf = (functionName: string) => (Stack.of(fnOf(functionName)) === stack ? template : Template.fromStack(Stack.of(fnOf(functionName))));
  const roleIdOf = (functionName: string) => Stack.of(fnOf(functionName)).getLogicalId(fnOf(functionName).role!.node.defaultChild as never);
  const variablesOf = (functionName: string): Record<string, unknown> =>
    (templateOf(functionName).toJSON().Resources[Stack.of(fnOf(functionName)).getLogicalId(fnOf(functionName).node.defaultChild as never)] as { Properties: { Environment?: { Variables?: Record<string, unknown> } } }).Properties.Environment?.Variables ?? {};
  const consumer = () => app.queues.find((q) => q.id === 'notify-outbox')!.functionName;
  const sweeper = () => app.crons.find((c) => c.id === 'notify-sweep')!.functionName;

  it('creates the SES identity, the configuration set and the events topic named by core, and no second queue', () => {
    const names = notifyNames(app.project, app.stage);
    template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'mail.example.com' });
    template.hasResourceProperties('AWS::SES::ConfigurationSet', { Name: names.configurationSet });
    template.hasResourceProperties('AWS::SNS::Topic', { TopicName: names.eventsTopic });
    const queueNames = Object.values(template.findResources('AWS::SQS::Queue')).map((q) => (q as { Properties: { QueueName: string } }).Properties.QueueName);
    expect(queueNames).to.not.include(names.dispatchQueue).and.not.include(names.dispatchDeadLetterQueue);
    expect(queueNames).to.include(app.queues[0]!.queueName);
    // The dispatcher queue is the app's queue: its URL is the notify output, and its consumer has one event source.
    expect(stack.notify!.queue).to.equal(stack.queues.get('notify-outbox')!.queue);
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', 1);
    expect(Object.keys(template.findOutputs(NOTIFY_OUTPUTS.dispatchQueueUrl))).to.have.length(1);
  });

  it('grants the send actions and sets the notify variables on the queue consumer and the sweeper only', () => {
    for (const name of [consumer(), sweeper()]) {
      const actions = actionsOf(statementsOfRole(templateOf(name), roleIdOf(name)));
      expect(actions, name).to.include('ses:SendEmail').and.include('sms-voice:SendTextMessage');
      expect(Object.keys(variablesOf(name)), name).to.include(NOTIFY_VARIABLES.configurationSet).and.include(NOTIFY_VARIABLES.dispatchQueueUrl);
    }
    for (const unit of app.units.filter((u) => ![consumer(), sweeper()].includes(u.functionName))) {
      const actions = actionsOf(statementsOfRole(templateOf(unit.functionName), roleIdOf(unit.functionName)));
      expect(actions.has('ses:SendEmail') || actions.has('sms-voice:SendTextMessage'), unit.functionName).to.equal(false);
      expect(Object.keys(variablesOf(unit.functionName)), unit.functionName).to.not.include(NOTIFY_VARIABLES.configurationSet);
    }
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Action: 'sms-voice:SendTextMessage', Resource: SMS_POOL })]) },
    });
  });

  it('subscribes the events function to the delivery-events topic', () => {
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'lambda', Endpoint: { 'Fn::GetAtt': [stack.getLogicalId(fnOf(app.functions[0]!.functionName).node.defaultChild as never), 'Arn'] } });
  });

  it('with shared roles, the dispatcher units do not share a role with a function that has the same other grants', () => {
    const sharedOutdir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-infra-notify-shared-'));
    try {
      const shared = synthesizeApp(app, { outdir: sharedOutdir, shareRoles: true }).stack;
      const roleOf = (name: string) => shared.functions.get(name)!.function.role!.node.path;
      const dispatcherRoles = new Set([consumer(), sweeper()].map(roleOf));
      for (const unit of app.units.filter((u) => ![consumer(), sweeper()].includes(u.functionName))) expect(dispatcherRoles.has(roleOf(unit.functionName)), unit.functionName).to.equal(false);
    } finally {
      fs.rmSync(sharedOutdir, { recursive: true, force: true });
    }
  });
});
