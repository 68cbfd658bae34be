import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { defineApp, type AppDefinition } from '@framework/core';
import { LICENSE_KEY_CONTEXT, synthesizeApp } from '../src/index.js';
import { SMALL_APP, routeSource, tempProject } from './helpers/temp-project.js';

describe('the @framework-pro license key (FW_LICENSE_KEY)', () => {
  let project: ReturnType<typeof tempProject>;
  let app: AppDefinition;
  before(() => {
    project = tempProject({ 'src/routes/a/get.ts': routeSource(), 'src/queues/jobs.ts': `export const main = Object.assign(async () => ({ batchItemFailures: [] }), { handlerInfo: { kind: 'task', scopes: [], middleware: [] } });\n` });
    app = defineApp({ ...SMALL_APP, rootDir: project.dir, infrastructure: { queues: [{ id: 'jobs' }] } });
  });
  after(() => project.remove());

  /** The environment of every function of the synthesized stage (its stacks' templates), by function name. */
  function environments(context: Record<string, unknown>): Map<string, Record<string, unknown>> {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-infra-license-'));
    try {
      const { assembly } = synthesizeApp(app, { outdir, context, checks: false });
      const templates = fs.readdirSync(assembly.directory).filter((f) => f.endsWith('.template.json')).map((f) => JSON.parse(fs.readFileSync(path.join(assembly.directory, f), 'utf8')) as { Resources: Record<string, { Type: string; Properties: { FunctionName?: string; Environment?: { Variables?: Record<string, unknown> } } }> });
      const functions = templates.flatMap((t) => Object.values(t.Resources)).filter((r) => r.Type === 'AWS::Lambda::Function' && typeof r.Properties.FunctionName === 'string');
      return new Map(functions.map((r) => [r.Properties.FunctionName!, r.Properties.Environment?.Variables ?? {}]));
    } finally {
      fs.rmSync(outdir, { recursive: true, force: true });
    }
  }

  it('is set on every function when the context carries it, and on none otherwise', function () {
    this.timeout(120_000);
    const withKey = environments({ [LICENSE_KEY_CONTEXT]: 'eyJhbGciOiJFZERTQSJ9.e30.sig' });
    expect(withKey.size).to.equal(app.units.length);
    for (const [name, env] of withKey) expect(env['FW_LICENSE_KEY'], name).to.equal('eyJhbGciOiJFZERTQSJ9.e30.sig');
    for (const [name, env] of environments({})) expect(env, name).not.to.have.property('FW_LICENSE_KEY');
  });
});
