import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { DEV_ONLY_ENV, ENV, defineApp, type AppDefinition } from '@framework/core';
import { DEPLOYED_ONLY_ENV, buildCdkApp } from '@framework/infra';
import { localAudiences, localResourceServer } from '../../src/dev/auth/issuer-plugin.js';
import { fillEnvironment } from '../../src/dev/dev-server.js';
import { lambdaEnvironment } from '../../src/dev/functions/lambda-environment.js';

/**
 * `fw dev` and `fw deploy` interpret the same model: every function must see the same variable names locally and
 * deployed. Deployed values come from the synthesized stack; local ones from the dev server's own fill function, fed
 * a value for every intent output the model asks for (what the engines provide).
 */
/** Every intent output the app's functions read, with a placeholder value (`local-<output>`), as fw dev's engines give them. */
function placeholderOutputs(app: AppDefinition): Map<string, Record<string, Record<string, string>>> {
  const outputs = new Map<string, Record<string, Record<string, string>>>();
  for (const value of Object.values(app.environment)) {
    if (value.kind !== 'output') continue;
    const intent = outputs.get(value.intent) ?? {};
    intent[value.id] = { ...intent[value.id], [value.output]: `local-${value.output}` };
    outputs.set(value.intent, intent);
  }
  return outputs;
}

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
    const outputs = placeholderOutputs(app);
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
  it('have the same values wherever the deployed value is known at synth time, and Lambda\'s own variables match the deployed function', function () {
    this.timeout(120_000);
    // Local values as fw dev fills them: the auth outputs from the dev server's own functions, the others placeholders.
    const outputs = placeholderOutputs(app);
    for (const db of app.databases) outputs.get('databases')![db.id]!.name = db.databaseName;
    outputs.set('auth', { default: { issuer: 'http://127.0.0.1:3000', audience: localAudiences(app).join(','), userPoolId: 'local', resourceServer: localResourceServer(app) } });
    const local = fillEnvironment(app, outputs, 'http://127.0.0.1:3000');

    const { stack } = buildCdkApp(app, { outdir: path.join(dir, 'cdk.out'), checks: false });
    let compared = 0;
    for (const unit of app.units) {
      const fn = stack.functions.get(unit.functionName)!;
      const cfn = fn.function.node.defaultChild as { environment?: unknown; handler?: string; runtime?: string };
      const deployed = (fn.function.stack.resolve(cfn.environment) as { variables: Record<string, unknown> }).variables;
      const lambda = lambdaEnvironment(app, unit, path.join(dir, 'build'));
      for (const [name, value] of Object.entries(deployed)) {
        // Resource attributes (ids, ARNs, endpoints) are only known after deploy; every literal must match.
        if (typeof value !== 'string') continue;
        const localValue = name in DEPLOYED_ONLY_ENV ? lambda[name] : { ...local, ...unit.environment }[name];
        expect(localValue, `${unit.functionName} ${name}`).to.equal(value);
        compared++;
      }
      // As many audiences (app client ids) locally as deployed.
      const audience = deployed[ENV.authAudience] as { 'Fn::Join'?: [string, unknown[]] };
      expect(local[ENV.authAudience]!.split(','), unit.functionName).to.have.length(audience['Fn::Join']?.[1].length ?? 1);
      // Lambda's own variables: the log group the stack creates, the handler setting, the runtime.
      expect(lambda.AWS_LAMBDA_LOG_GROUP_NAME).to.equal(fn.function.stack.resolve((fn.logGroup.node.defaultChild as { logGroupName?: string }).logGroupName));
      expect(lambda._HANDLER).to.equal(cfn.handler);
      expect(lambda.AWS_EXECUTION_ENV).to.equal(`AWS_Lambda_${fn.function.stack.resolve(cfn.runtime) as string}`);
    }
    expect(compared).to.be.greaterThan(app.units.length * 5);
    expect(local).to.include({ FW_IDEMPOTENCY_TABLE: 'parity-dev-idempotency', FW_AUTH_RESOURCE_SERVER: 'parity' });
  });
});
