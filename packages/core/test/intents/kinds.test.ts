import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import fixture from '../fixtures/acme/fw.config.js';
import {
  ENV,
  INTENT_KIND_REGISTRY,
  INTENT_OUTPUTS,
  kindSourceFolders,
  MIGRATION_MEMORY_SIZE,
  MIGRATION_TIMEOUT_SECONDS,
  defineApp,
  migrationFunctionDefinition,
  migrationFunctionName,
  resolveEnvironment,
  type AppDefinition,
  type EnvValue,
  type IntentOutputValues,
} from '../../src/index.js';
import { TempProject, validOptions } from '../helpers/temp-project.js';

/** A value for every output the model references: `<intent>:<id>:<output>`. */
function everyOutput(app: AppDefinition): IntentOutputValues {
  const outputs: Record<string, Record<string, Record<string, string>>> = {};
  for (const value of Object.values(app.environment)) {
    if (value.kind !== 'output') continue;
    ((outputs[value.intent] ??= {})[value.id] ??= {})[value.output] = `${value.intent}:${value.id}:${value.output}`;
  }
  return outputs as IntentOutputValues;
}

describe('intent kinds', () => {
  const dev: AppDefinition = fixture.forStage('dev');

  it('give the model a field for every kind of the registry, and their functions after the routes in registry order', () => {
    for (const kind of Object.keys(INTENT_KIND_REGISTRY)) expect(dev, kind).to.have.property(kind);
    expect(dev.units.map((u) => u.kind)).to.deep.equal([...dev.routes.map(() => 'route'), ...dev.functions.map(() => 'function'), ...dev.queues.map(() => 'queue'), ...dev.crons.map(() => 'cron')]);
  });

  it('name the folders they discover handler files in (fw dev watches them), read from the registry', () => {
    expect(kindSourceFolders()).to.deep.equal(['src/queues', 'src/crons', 'src/ws']);
  });

  it('reference only outputs that INTENT_OUTPUTS names for their kind', () => {
    const references = Object.values(dev.environment).filter((v): v is Extract<EnvValue, { kind: 'output' }> => v.kind === 'output');
    expect(new Set(references.map((r) => r.intent))).to.have.keys('databases', 'storage', 'queues', 'caches', 'auth');
    for (const ref of references) expect(INTENT_OUTPUTS[ref.intent] as readonly string[], `${ref.intent}.${ref.output}`).to.include(ref.output);
  });
});

describe('the model is final', () => {
  const dev: AppDefinition = fixture.forStage('dev');

  it('names the idempotency table once: the model field is the value of FW_IDEMPOTENCY_TABLE', () => {
    expect(dev.idempotency).to.deep.equal({ tableName: 'acme-dev-idempotency' });
    expect(dev.environment[ENV.idempotencyTable]).to.deep.equal({ kind: 'static', value: dev.idempotency.tableName });
    expect(fixture.forStage('prod').idempotency.tableName).to.equal('acme-prod-idempotency');
  });

  it('defines each database\'s migration function with its own memory and timeout, whatever the preset', () => {
    for (const stage of ['dev', 'prod']) {
      const [db] = fixture.forStage(stage).databases;
      expect(db!.migrationFunction).to.deep.equal({
        kind: 'function',
        id: 'migrate/main',
        file: '@framework/data/migrate-handler',
        functionName: migrationFunctionName('acme', stage, 'main'),
        memorySize: MIGRATION_MEMORY_SIZE,
        timeout: MIGRATION_TIMEOUT_SECONDS,
        environment: {},
        description: 'Applies the migrations of database main',
      });
      expect(db!.migrationFunction.functionName).to.equal(db!.migrationFunctionName);
      // infra's DatabaseMigrations builds its default unit with the same function, so the two cannot drift apart.
      expect(migrationFunctionDefinition('main', db!.migrationFunctionName)).to.deep.equal(db!.migrationFunction);
    }
    expect([MIGRATION_MEMORY_SIZE, MIGRATION_TIMEOUT_SECONDS]).to.deep.equal([512, 600]);
  });

  it('names FW_PROJECT_ROOT in ENV, the variable defineApp reads the project folder from', () => {
    expect(ENV.projectRoot).to.equal('FW_PROJECT_ROOT');
    const project = new TempProject(['src/routes/health/get.ts']);
    const saved = process.env[ENV.projectRoot];
    try {
      process.env[ENV.projectRoot] = project.rootDir;
      const { rootDir: _ignored, ...options } = validOptions(project.rootDir);
      expect(defineApp(options).rootDir).to.equal(project.rootDir);
    } finally {
      if (saved === undefined) delete process.env[ENV.projectRoot];
      else process.env[ENV.projectRoot] = saved;
      project.remove();
    }
  });
});

describe('resolveEnvironment (the one resolver of fw dev and the CDK constructs)', () => {
  const dev: AppDefinition = fixture.forStage('dev');

  it('keeps fixed values, fills every output reference and keeps the model\'s order', () => {
    const { values, missing } = resolveEnvironment(dev.environment, everyOutput(dev));
    expect(missing).to.deep.equal([]);
    expect(Object.keys(values)).to.deep.equal(Object.keys(dev.environment));
    expect(values.FW_PROJECT).to.equal('acme');
    expect(values.FW_DB_MAIN_HOST).to.equal('databases:main:host');
    expect(values.FW_AUTH_ISSUER).to.equal('auth:default:issuer');
    expect(values.FW_STORAGE_UPLOADS_MAX_UPLOAD_BYTES).to.equal(String(10 * 1024 * 1024));
  });

  it('reports every output the interpreter does not provide, without taking an inherited member for one', () => {
    const environment: Record<string, EnvValue> = {
      FW_X: { kind: 'static', value: 'x' },
      FW_DB_CONSTRUCTOR_HOST: { kind: 'output', intent: 'databases', id: 'constructor', output: 'host' },
      FW_QUEUE_JOBS_URL: { kind: 'output', intent: 'queues', id: 'jobs', output: 'url' },
    };
    const { values, missing } = resolveEnvironment(environment, { databases: { main: { host: 'h', port: '1', name: 'n', secretArn: 's' } }, queues: { jobs: {} as never } });
    expect(values).to.deep.equal({ FW_X: 'x' });
    expect(missing).to.deep.equal([
      { variable: 'FW_DB_CONSTRUCTOR_HOST', intent: 'databases', id: 'constructor', output: 'host' },
      { variable: 'FW_QUEUE_JOBS_URL', intent: 'queues', id: 'jobs', output: 'url' },
    ]);
  });
});

describe('the kind modules in @framework/core/names', () => {
  /** Every module `from` loads at run time (type-only imports and re-exports left out), by path under src/. */
  function runtimeGraph(from: string): Map<string, string[]> {
    const graph = new Map<string, string[]>();
    const visit = (file: string) => {
      if (graph.has(file)) return;
      const source = fs.readFileSync(file, 'utf8');
      const specifiers = [...source.matchAll(/^(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
      graph.set(file, specifiers);
      for (const specifier of specifiers) if (specifier.startsWith('.')) visit(path.resolve(path.dirname(file), specifier.replace(/\.js$/, '.ts')));
    };
    visit(from);
    return graph;
  }

  it('export every kind (its variable names for the runtime) and load no io-ts', async () => {
    const names = await import('../../src/names.js');
    for (const exported of ['databaseEnv', 'bucketEnv', 'queueEnv', 'cacheEnv', 'INTENT_KIND_REGISTRY', 'INTENT_OUTPUTS', 'resolveEnvironment']) expect(names, exported).to.have.property(exported);
    const graph = runtimeGraph(fileURLToPath(new URL('../../src/names.ts', import.meta.url)));
    const packages = [...graph.values()].flat().filter((s) => !s.startsWith('.') && !s.startsWith('node:'));
    expect(packages).to.deep.equal([]);
    expect([...graph.keys()].filter((f) => f.includes(`${path.sep}intents${path.sep}`)).length).to.be.greaterThan(8);
  });
});
