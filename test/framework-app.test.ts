import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { Testing } from 'projen';
import { expectCodeTable } from '../packages/core/test/helpers/code-table.js';
import { ERROR_CODES, FrameworkAppError, PROJEN_ERROR_CODES } from '../src/errors';
import { billingCodec, checkBilling, type BillingConfig } from '../packages/core/src/config/billing.js';
import { BillingInterval, FrameworkApp, FrameworkTemplate, Preset, PriceKind } from '../src/index';
import { expectSnapshot } from './support/snapshot';
import { filesNamingPaths, tempDir } from './support/temp-dir';

/** Synthesizes into a throwaway folder (projen refuses to snapshot outside the temp folder). */
function synth(app: FrameworkApp): Record<string, unknown> {
  return Testing.synth(app);
}

const outdirs: string[] = [];
function newApp(options: Partial<ConstructorParameters<typeof FrameworkApp>[0]> = {}): FrameworkApp {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-app-'));
  outdirs.push(outdir);
  return new FrameworkApp({ name: 'my-app', outdir, ...options });
}

describe('FrameworkApp', () => {
  // Real synths below write into a temp folder; they must not run `npm install` there (no registry in unit tests).
  const postBefore = process.env.PROJEN_DISABLE_POST;
  before(() => {
    process.env.PROJEN_DISABLE_POST = 'true';
  });
  after(() => {
    if (postBefore === undefined) delete process.env.PROJEN_DISABLE_POST;
    else process.env.PROJEN_DISABLE_POST = postBefore;
    for (const dir of outdirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('generates the default project (API template): snapshot of every managed file', () => {
    // Given the default options
    const app = newApp();
    // When it is synthesized
    const files = synth(app);
    // Then the managed files are those of the snapshot (samples are checked in the template tests)
    const managed = ['fw.config.ts', 'config/base.ts', 'config/security.ts', 'config/dev.ts', 'config/prod.ts', 'package.json', 'tsconfig.json', '.mocharc.json', '.projen/tasks.json'];
    expectSnapshot('default-app', Object.fromEntries(managed.map((f) => [f, files[f]])));
  });

  it('writes the intents of the options into fw.config.ts in core shape (schedule object, environment record)', () => {
    const app = newApp({
      template: FrameworkTemplate.API,
      schedules: [{ id: 'cleanup', cron: '0 3 * * ? *' }],
      functions: [{ id: 'reports/daily', timeout: 60, environment: [{ name: 'REPORT_FORMAT', value: 'pdf' }] }],
      caches: [{ id: 'sessions' }],
      storage: [{ id: 'pages', inlineActiveContent: true }],
      ws: { routeSelectionExpression: '$request.body.type' },
    });
    const config = synth(app)['fw.config.ts'] as string;
    expect(config).to.contain("ws: { routeSelectionExpression: '$request.body.type' }");
    expect(config).to.contain("schedules: [{ id: 'cleanup', schedule: { cron: '0 3 * * ? *' } }]");
    expect(config).to.contain("functions: [{ id: 'reports/daily', timeout: 60, environment: { REPORT_FORMAT: 'pdf' } }]");
    expect(config).to.contain("caches: [{ id: 'sessions' }]");
    expect(config).to.contain("{ id: 'pages', inlineActiveContent: true }");
  });

  it('writes billing into fw.config.ts in core shape (maps by id and name, the last tier up to inf), which core accepts', () => {
    const app = newApp({
      billing: {
        plans: [
          { id: 'free', currency: 'usd', features: [{ name: 'seats', limit: 2 }, { name: 'api_calls', included: 1000 }, { name: 'sso', enabled: false }] },
          {
            id: 'pro',
            currency: 'usd',
            trialDays: 14,
            interval: BillingInterval.MONTH,
            prices: [
              { kind: PriceKind.FLAT, amount: 2900 },
              { kind: PriceKind.PER_SEAT, unitAmount: 500, includedSeats: 3 },
              { kind: PriceKind.METERED, meter: 'exports', tiers: [{ upTo: 10, unitAmount: '0' }, { unitAmount: '12.5', flatAmount: 100 }] },
            ],
            features: [{ name: 'seats', limit: 10 }, { name: 'api_calls', included: 10000, overage: '0.1' }],
          },
        ],
        defaultPlan: 'free',
      },
    });
    const config = synth(app)['fw.config.ts'] as string;
    const literal = /\n {2}billing: ([\s\S]*),\n\}\);\n$/.exec(config)?.[1];
    expect(literal, config).to.be.a('string');
    const billing = new Function(`return (${literal!});`)() as BillingConfig;
    expect(billing.plans['free']).to.deep.equal({ currency: 'usd', features: { seats: 2, api_calls: { included: 1000 }, sso: false } });
    expect(billing.plans['pro']!.prices![2]).to.deep.equal({ kind: 'metered', meter: 'exports', tiers: [{ upTo: 10, unitAmount: 0 }, { upTo: 'inf', unitAmount: '12.5', flatAmount: 100 }] });
    expect(billing.plans['pro']!.features).to.deep.equal({ seats: 10, api_calls: { included: 10000, overage: '0.1' } });
    const decoded = billingCodec.decode(billing);
    expect(decoded._tag).to.equal('Right');
    expect(checkBilling(billing)).to.deep.equal([]);
  });

  it('writes roles into config/security.ts in core shape (a record of scopes), from the options and addRole', () => {
    // Given a role in the options and one added later
    const app = newApp({ roles: [{ name: 'viewer', scopes: ['tasks:read'] }] });
    app.addRole({ name: 'admin', scopes: ['tasks:read', 'tasks:write'], description: 'Everything' });
    // Then config/security.ts declares both, after the template's own roles, beside the template's scopes
    const security = synth(app)['config/security.ts'] as string;
    expect(security).to.contain("    editor: { scopes: ['tasks:read', 'tasks:write'], description: 'Reads and writes tasks' },\n    viewer: { scopes: ['tasks:read'] },\n    admin: { scopes: ['tasks:read', 'tasks:write'], description: 'Everything' },\n  },");
    // And a second role of one name is refused
    expect(() => app.addRole({ name: 'admin', scopes: [] })).to.throw(/roles: name "admin" is declared twice/);
  });

  it('addQueue after construction reaches fw.config.ts and writes a sample consumer', () => {
    // Given an app, when a queue is added in .projenrc.ts after the constructor
    const app = newApp();
    app.addQueue({ id: 'emails', batchSize: 5, deadLetterQueue: true });
    const files = synth(app);
    // Then fw.config.ts declares it and the consumer file core requires exists
    expect(files['fw.config.ts']).to.contain("queues: [{ id: 'emails', batchSize: 5, deadLetterQueue: true }]");
    expect(files['src/queues/emails.ts']).to.contain("taskHandler<SQSEvent>");
  });

  it('addIntents declares any kinds at once: lists extend the options, a single intent replaces, each with its sample and package', () => {
    // Given an app with a cache and auth in its options, when more intents are declared in one call
    const app = newApp({ caches: [{ id: 'sessions' }], auth: { selfSignUp: true } });
    app.addIntents({ caches: [{ id: 'rates' }], schedules: [{ id: 'cleanup', rate: '1 day' }], databases: [{ id: 'main' }], auth: { passwordMinLength: 16 }, notify: { queue: 'mail' } });
    const files = synth(app);
    const config = files['fw.config.ts'] as string;
    // Then fw.config.ts has both caches, the schedule in core's shape, and the last auth only
    expect(config).to.contain("caches: [{ id: 'sessions' }, { id: 'rates' }]");
    expect(config).to.contain("schedules: [{ id: 'cleanup', schedule: { rate: '1 day' } }]");
    expect(config).to.contain('auth: { passwordMinLength: 16 }');
    expect(config).not.to.contain('selfSignUp');
    expect(config).to.contain("notify: { queue: 'mail' }");
    // And the schedule's sample file and the database's package come with them
    expect(files['src/crons/cleanup.ts']).to.be.a('string');
    expect((files['package.json'] as { dependencies: Record<string, string> }).dependencies).to.have.property('@framework/data');
    // And the same checks as the add* methods apply: a second id, a schedule with both cron and rate
    expect(() => app.addIntents({ caches: [{ id: 'rates' }] })).to.throw(/caches: id "rates" is declared twice/).with.property('code', ERROR_CODES.duplicateId);
    expect(() => app.addIntents({ schedules: [{ id: 'both', rate: '1 day', cron: '0 3 * * ? *' }] })).to.throw(/give exactly one of cron/).with.property('code', ERROR_CODES.invalidOption);
  });

  it('never overwrites a sample file the user changed', () => {
    const { dir, remove } = tempDir('fw-sample');
    try {
      const first = new FrameworkApp({ name: 'my-app', outdir: dir, queues: [{ id: 'emails' }] });
      first.synth();
      const consumer = path.join(dir, 'src/queues/emails.ts');
      fs.writeFileSync(consumer, '// mine\n');
      const second = new FrameworkApp({ name: 'my-app', outdir: dir, queues: [{ id: 'emails' }] });
      second.synth();
      expect(fs.readFileSync(consumer, 'utf8')).to.equal('// mine\n');
    } finally {
      remove();
    }
  });

  it('writes stages with their presets and overrides, and the base config', () => {
    const app = newApp({
      region: 'eu-west-1',
      account: '123456789012',
      stages: [
        { name: 'dev', preset: Preset.NANO },
        { name: 'prod-eu', preset: Preset.LARGE, overrides: { functions: { memorySize: 4096 }, logs: { retentionDays: 30 } } },
      ],
    });
    const files = synth(app);
    expect(files['config/base.ts']).to.contain("const base: BaseConfig = { name: 'my-app', region: 'eu-west-1', account: '123456789012' };");
    expect(files['config/prod-eu.ts']).to.contain("const prodEu: EnvironmentConfig = {\n  preset: 'large',\n  overrides: { functions: { memorySize: 4096 }, logs: { retentionDays: 30 } },\n};");
    expect(files['fw.config.ts']).to.contain("envs: { dev, 'prod-eu': prodEu }");
    expect(files['config/prod.ts']).to.equal(undefined);
  });

  it('pins every @framework package to one version and writes the scope registry to .npmrc', () => {
    const app = newApp({ template: FrameworkTemplate.FULLSTACK, frameworkVersion: '1.2.3', frameworkRegistry: 'https://npm.example.com/' });
    const files = synth(app);
    const pkg = files['package.json'] as { dependencies: Record<string, string>; devDependencies: Record<string, string>; type: string };
    expect(pkg.type).to.equal('module');
    expect(pkg.dependencies).to.include({ '@framework/runtime': '1.2.3', '@framework/core': '1.2.3', '@framework/data': '1.2.3', '@framework/storage': '1.2.3' });
    expect(pkg.devDependencies).to.include({ '@framework/cli': '1.2.3', '@framework/projen': '1.2.3' });
    expect(files['.npmrc']).to.contain('@framework:registry=https://npm.example.com/');
  });

  it('has the framework tasks, passing arguments through (npx projen deploy --stage prod)', () => {
    const tasks = (synth(newApp())['.projen/tasks.json'] as { tasks: Record<string, { steps?: { exec?: string; receiveArgs?: boolean }[] }> }).tasks;
    for (const [task, command] of Object.entries({ dev: 'fw dev', deploy: 'fw deploy', synth: 'fw synth', g: 'fw g', migrate: 'fw migrate', test: 'mocha' })) {
      expect(tasks[task]?.steps?.[0], task).to.deep.include({ exec: command, receiveArgs: true });
    }
  });

  describe('refuses invalid options with a message naming the option and the fix', () => {
    const cases: [string, () => unknown, string, RegExp][] = [
      ['a project name with capitals', () => newApp({ name: 'My_App' }), 'FW_ERR_PROJEN_INVALID_OPTION', /option "name".*"My_App".*lowercase/],
      ['a region that is not one', () => newApp({ region: 'europe' }), 'FW_ERR_PROJEN_INVALID_OPTION', /option "region"/],
      ['a stage name with capitals', () => newApp({ stages: [{ name: 'Prod', preset: Preset.LARGE }] }), 'FW_ERR_PROJEN_INVALID_OPTION', /stages\[\]\.name/],
      ['a schedule with both cron and rate', () => newApp({ schedules: [{ id: 'x', cron: '0 3 * * ? *', rate: '1 hour' }] }), 'FW_ERR_PROJEN_INVALID_OPTION', /exactly one of cron/],
      ['a queue the template already declares', () => newApp({ template: FrameworkTemplate.API_QUEUE, queues: [{ id: 'jobs' }] }), 'FW_ERR_PROJEN_DUPLICATE_ID', /queues: id "jobs" is declared twice/],
      ['an unknown template', () => newApp({ template: 'graphql' as FrameworkTemplate }), 'FW_ERR_PROJEN_UNKNOWN_TEMPLATE', /template "graphql".*api, api-database/],
    ];
    for (const [what, create, code, message] of cases) {
      it(what, () => {
        let thrown: unknown;
        try {
          create();
        } catch (error) {
          thrown = error;
        }
        expect(thrown).to.be.instanceOf(FrameworkAppError);
        expect((thrown as FrameworkAppError).code).to.equal(code);
        expect((thrown as Error).message).to.match(message);
      });
    }
  });

  it('documents exactly its error codes and those of fw init in the README', async () => {
    const readme = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
    const { InitError } = await import('../packages/cli/src/errors.js');
    expectCodeTable(readme, '`@framework/projen`: the project type, templates and `fw init`', [...Object.keys(PROJEN_ERROR_CODES), ...Object.keys(InitError.CODES)]);
    for (const code of Object.values(ERROR_CODES)) expect(PROJEN_ERROR_CODES, code).to.have.property(code);
  });

  it('generates no file that names a path of this machine', () => {
    const { dir, remove } = tempDir('fw-paths');
    try {
      new FrameworkApp({ name: 'my-app', outdir: dir, template: FrameworkTemplate.FULLSTACK, schedules: [{ id: 'nightly', rate: '1 day' }] }).synth();
      expect(filesNamingPaths(dir, [dir, path.resolve(__dirname, '..'), os.homedir(), os.tmpdir()])).to.deep.equal([]);
    } finally {
      remove();
    }
  });
});
