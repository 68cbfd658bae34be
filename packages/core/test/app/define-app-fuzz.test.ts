import { expect } from 'chai';
import fc from 'fast-check';
import { CONFIG_PROBLEM_CODES, ConfigError, defineApp } from '../../src/index.js';
import { TempProject, validOptions } from '../helpers/temp-project.js';

/** Every path (as keys) inside a plain JSON-like value, the root included. */
function pathsOf(value: unknown, prefix: readonly string[] = []): (readonly string[])[] {
  const out: (readonly string[])[] = [prefix];
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) out.push(...pathsOf(child, [...prefix, key]));
  }
  return out;
}

/** A deep copy of `value` with the value at `path` replaced by `replacement`. */
function replaceAt(value: unknown, path: readonly string[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path as [string, ...string[]];
  const copy: Record<string, unknown> = Array.isArray(value) ? ([...value] as unknown as Record<string, unknown>) : { ...(value as Record<string, unknown>) };
  copy[head] = replaceAt(copy[head], rest, replacement);
  return copy;
}

/** Garbage of every kind: null, arrays, numbers, strings, objects, functions, symbols, and nested mixes. */
const garbage = fc.oneof(
  fc.anything({ withBigInt: true, withBoxedValues: true, withDate: true, withMap: true, withSet: true, withNullPrototype: true, withSparseArray: true, withTypedArray: true }),
  fc.constantFrom(null, undefined, [], {}, 0, -1, 1.5, Number.NaN, Infinity, '', ' ', '\u0000', '../..', () => 1, Symbol('s'), 'constructor', '__proto__'),
);

/** The only acceptable outcomes: an app definition, or a ConfigError whose problems are well-formed. */
function expectDefinitionOrConfigError(input: unknown): void {
  try {
    const app = defineApp(input as never);
    expect(app.stage).to.be.a('string');
  } catch (error) {
    if (!(error instanceof ConfigError)) throw new Error(`defineApp threw ${String(error)} instead of a ConfigError`, { cause: error });
    expect(error.problems.length).to.be.greaterThan(0);
    for (const problem of error.problems) {
      expect(Object.keys(CONFIG_PROBLEM_CODES)).to.include(problem.code);
      expect(problem.path).to.be.a('string').and.not.equal('');
      expect(problem.message).to.be.a('string').and.not.equal('');
    }
  }
}

describe('defineApp on garbage input', function () {
  // Thousands of defineApp calls, each reading the project folder: generous time on a busy machine.
  this.timeout(60_000);

  // Given a real project folder (a route, a queue, a cron, a function) so the file checks run too
  const project = new TempProject(['src/routes/tasks/[id]/put.ts', 'src/queues/emails.ts', 'src/crons/cleanup.ts', 'src/functions/reports/daily.ts']);
  after(() => project.remove());
  const valid = validOptions(project.rootDir, {
    infrastructure: {
      functions: [{ id: 'reports/daily', timeout: 60, environment: { A: 'b' } }],
      queues: [{ id: 'emails', batchSize: 5 }],
      schedules: [{ id: 'cleanup', schedule: { cron: '0 3 * * ? *' } }],
      databases: [{ id: 'main' }],
      storage: [{ id: 'uploads', cdn: true, lifecycle: [{ expireAfterDays: 30 }], notifications: [{ queue: 'emails' }] }],
      caches: [{ id: 'sessions' }],
      auth: { mfa: 'off' },
    },
    envs: { dev: { preset: 'free', overrides: { functions: { memorySize: 256 }, logs: { level: 'warn' } } }, prod: { preset: 'medium' } },
  });
  // rootDir stays real in the mutations below (it is fuzzed on its own), so discovery always has files to read.
  const paths = pathsOf(valid).filter((p) => p[0] !== 'rootDir');

  it('accepts the unmutated options', () => {
    expect(defineApp(valid).units).to.have.length(4);
  });

  it('never throws anything but a ConfigError for any value as the whole input', () => {
    fc.assert(fc.property(garbage, (input) => expectDefinitionOrConfigError(input)), { numRuns: 300 });
  });

  it('never throws anything but a ConfigError when any one position of a valid config holds garbage', () => {
    fc.assert(
      fc.property(fc.constantFrom(...paths), garbage, (path, value) => expectDefinitionOrConfigError(replaceAt(valid, path, value))),
      { numRuns: 1000 },
    );
  });

  it('never throws anything but a ConfigError when several positions hold garbage', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...paths), garbage), { minLength: 2, maxLength: 6 }), (edits) =>
        expectDefinitionOrConfigError(edits.reduce<unknown>((options, [path, value]) => replaceAt(options, path, value), valid)),
      ),
      { numRuns: 500 },
    );
  });

  it('never throws anything but a ConfigError for any rootDir, stage or directory option', () => {
    fc.assert(
      fc.property(fc.constantFrom('rootDir', 'stage', 'routesDir', 'functionsDir'), fc.oneof(garbage, fc.string()), (key, value) =>
        expectDefinitionOrConfigError({ ...valid, [key]: value }),
      ),
      { numRuns: 400 },
    );
  });
});
