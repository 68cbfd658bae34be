import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { DEV_ONLY_ENV, defineApp, type AppDefinition } from '@framework/core';
import { DEPLOYED_ONLY_ENV, buildCdkApp } from '@framework/infra';
import { fillEnvironment } from '../../src/dev/dev-server.js';

/**
 * `fw dev` and `fw deploy` interpret the same model: every function must see the same variable names locally and
 * deployed. Deployed values come from the synthesized stack; local ones from the dev server's own fill function, fed
 * a value for every intent output the model asks for (what the engines provide).
 */
describe('variables of fw dev and of the deployed functions', () => {
  let dir: string;
  let app: AppDefinition;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-env-parity-'));
    const write = (file: string, content: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), content);
    };
    const main = "export const main = Object.assign(async () => ({}), { handlerInfo: { kind: 'http', scopes: [], middleware: [] } });\n";
    write('src/routes/things/get.ts', main);
    write('src/queues/jobs.ts', main);
    write('src/functions/report.ts', main);
    app = defineApp({
      rootDir: dir,
      stage: 'dev',
      base: { name: 'parity', region: 'eu-central-1' },
      security: { scopes: { 'things:read': 'Read' }, appClients: { web: { scopes: ['things:read'], flows: ['user_srp'] } } },
      envs: { dev: { preset: 'free' } },
      infrastructure: { auth: {}, databases: [{ id: 'main' }], storage: [{ id: 'files' }], queues: [{ id: 'jobs' }], caches: [{ id: 'sessions' }] },
    });
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('are the same names for every function, apart from the documented dev-only and deployed-only ones', function () {
    this.timeout(120_000);
    const outputs = new Map<string, Record<string, Record<string, string>>>();
    for (const value of Object.values(app.environment)) {
      if (value.kind !== 'output') continue;
      const intent = outputs.get(value.intent) ?? {};
      intent[value.id] = { ...intent[value.id], [value.output]: `local-${value.output}` };
      outputs.set(value.intent, intent);
    }
    const local = Object.keys(fillEnvironment(app, outputs, 'http://127.0.0.1:3000')).filter((k) => !DEV_ONLY_ENV.includes(k));

    const { stack } = buildCdkApp(app, { outdir: path.join(dir, 'cdk.out'), checks: false });
    for (const unit of app.units) {
      const fn = stack.functions.get(unit.functionName)!.function;
      const rendered = fn.stack.resolve((fn.node.defaultChild as { environment?: unknown }).environment) as { variables: object };
      const deployed = Object.keys(rendered.variables);
      expect(deployed.filter((k) => !(k in DEPLOYED_ONLY_ENV)), unit.functionName).to.have.members([...local, ...Object.keys(unit.environment)]);
    }
    expect(local).to.include.members(['FW_DB_MAIN_HOST', 'FW_STORAGE_FILES_URL', 'FW_QUEUE_JOBS_URL', 'FW_CACHE_SESSIONS_ENDPOINT', 'FW_AUTH_ISSUER', 'FW_IDEMPOTENCY_TABLE']);
  });
});
