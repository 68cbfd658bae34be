import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { App } from 'aws-cdk-lib';
import { defineApp, type AppDefinition } from '@framework/core';
import { FrameworkStack, SHARE_ROLES_CONTEXT, synthesizeApp } from '../src/index.js';
import { SMALL_APP, routeSource, tempProject } from './helpers/temp-project.js';

const info = (kind: string) => `{ handlerInfo: { kind: '${kind}', scopes: [], middleware: [] } }`;

describe('shared execution roles (shareRoles)', () => {
  let project: ReturnType<typeof tempProject>;
  let app: AppDefinition;

  before(() => {
    // Given three routes that use nothing, one that sends to a queue, and the queue's consumer
    project = tempProject({
      'src/routes/a/get.ts': routeSource(),
      'src/routes/b/get.ts': routeSource(),
      'src/routes/c/get.ts': routeSource(),
      'src/routes/d/post.ts': `export const main = Object.assign(async (_e: unknown, _c: unknown, service: any) => service.queues['jobs'].send({}), ${info('http')});\n`,
      'src/queues/jobs.ts': `export const main = Object.assign(async () => ({ batchItemFailures: [] }), ${info('task')});\n`,
    });
    app = defineApp({ ...SMALL_APP, rootDir: project.dir, infrastructure: { queues: [{ id: 'jobs' }] } });
  });
  after(() => project.remove());

  /** Every function's role, and every role, of the synthesized stack and its route shards. */
  function synth(options: { shareRoles?: boolean; context?: Record<string, unknown> }) {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-infra-roles-'));
    try {
      // With cdk-nag on: a shared role must pass the same checks as one role per function.
      const { assembly, stack } = synthesizeApp(app, { outdir, ...options });
      const templates = fs.readdirSync(assembly.directory).filter((f) => f.endsWith('.template.json')).map((f) => JSON.parse(fs.readFileSync(path.join(assembly.directory, f), 'utf8')) as { Resources: Record<string, { Type: string; Properties: Record<string, unknown> }> });
      const resources = templates.flatMap((t) => Object.entries(t.Resources));
      const roles = resources.filter(([, r]) => r.Type === 'AWS::IAM::Role').map(([id]) => id);
      const functionRole = new Map([...stack.functions].map(([name, fn]) => [name, fn.function.role!.node.path]));
      const policies = resources.filter(([, r]) => r.Type === 'AWS::IAM::Policy').map(([, r]) => JSON.stringify(r.Properties));
      return { stack, roles, functionRole, policies };
    } finally {
      fs.rmSync(outdir, { recursive: true, force: true });
    }
  }

  it('gives each function a role of its own by default', function () {
    this.timeout(120_000);
    const { roles, functionRole } = synth({});
    expect(new Set(functionRole.values()).size).to.equal(app.units.length);
    expect(roles.length).to.be.at.least(app.units.length);
  });

  it('shares one role among functions with identical grants, and none beyond them', function () {
    this.timeout(120_000);
    const { stack, functionRole, policies } = synth({ shareRoles: true });
    const role = (path: string) => functionRole.get(app.routes.find((r) => r.file.includes(path))!.functionName);
    // The three routes that use nothing share one role; the sender and the consumer each have their own.
    expect(role('/a/')).to.equal(role('/b/')).and.to.equal(role('/c/'));
    expect(role('/d/')).to.not.equal(role('/a/'));
    const consumer = functionRole.get(app.queues[0]!.functionName);
    expect(consumer).to.not.equal(role('/a/')).and.to.not.equal(role('/d/'));
    expect(stack.sharedRoles.size).to.equal(3);
    // The shared role of a, b and c carries no grant: only the sender may send, only the consumer receive.
    expect(policies.filter((p) => p.includes('sqs:SendMessage'))).to.have.length(1);
    expect(policies.filter((p) => p.includes('sqs:ReceiveMessage'))).to.have.length(1);
  });

  it('is turned on by the CDK context key too (how fw commands pass it)', () => {
    const stack = new FrameworkStack(new App({ context: { [SHARE_ROLES_CONTEXT]: true } }), 'Test', { app });
    expect(stack.sharedRoles.size).to.equal(3);
  });
});
