import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { loadApp } from '../../src/app-loader/index.js';
import { APP_TYPES_FILE, writeAppTypes } from '../../src/types/index.js';
import { appProject, REPO } from './fixtures/app-project.js';

const run = promisify(execFile);
const CHECKS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'checks');

/** `tsc --noEmit` on the project: its errors by file (`src/checks/<name>.ts`), each error's text with its elaboration. */
async function typeErrors(dir: string): Promise<Record<string, string[]>> {
  const result = await run(process.execPath, [path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '--pretty', 'false', '-p', 'tsconfig.json'], { cwd: dir }).then(
    (ok) => ok.stdout,
    (failed: { stdout?: string }) => failed.stdout ?? '',
  );
  const errors: Record<string, string[]> = {};
  let last: string[] | undefined;
  for (const line of result.split('\n')) {
    const match = /^(.+?)\(\d+,\d+\): error (TS\d+: .*)$/.exec(line);
    if (match) (errors[match[1]!] ??= []).push(match[2]!), (last = errors[match[1]!]);
    else if (line.startsWith(' ') && last && last.length) last[last.length - 1] += `\n${line.trim()}`;
  }
  return errors;
}

describe('app types (.fw/types/app.d.ts)', function () {
  this.timeout(300_000);

  it("the example's declaration: its queue, function, bucket, database and scopes, the function typed by its main", async () => {
    const app = await loadApp(path.join(REPO, 'examples', 'tasks-api'), 'dev');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-types-example-'));
    try {
      expect(writeAppTypes(dir, app)).to.equal(true);
      const text = fs.readFileSync(path.join(dir, APP_TYPES_FILE), 'utf8');
      expect(text).to.contain("declare module '@framework/runtime' {\n  interface Register {\n");
      // Every queue of fw.config.ts, as a union of literals.
      const queues = /\n    queues: ([^;\n]+);\n/.exec(text)?.[1]?.split(' | ');
      expect(queues).to.have.members(['"task-events"', '"webhooks"', '"notify-outbox"', '"ai-ingest"']);
      expect(text).to.contain('    functions: {\n').and.contain('      "task-summary": typeof import("../../src/functions/task-summary.js").main;\n').and.contain('      "inbound-sms": typeof import("../../src/functions/inbound-sms.js").main;\n');
      expect(text).to.contain('    buckets: "attachments";\n');
      expect(text).to.contain('    databases: "main";\n');
      // Every scope of config/security.ts, sorted (the example's file may declare more than these two).
      const scopes = Object.keys(app.config.security.scopes).sort();
      expect(scopes).to.include.members(['tasks:read', 'tasks:write']);
      expect(text).to.contain(`    scopes: ${scopes.map((s) => JSON.stringify(s)).join(' | ')};\n`);
      // The same app again: the file is not rewritten (no needless re-check in the editor or fw dev).
      expect(writeAppTypes(dir, app)).to.equal(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('type-checked against the generated file (tsc --noEmit on fixture files)', () => {
    let dir: string;
    let errors: Record<string, string[]>;
    before(async () => {
      const checks = Object.fromEntries(fs.readdirSync(CHECKS).map((file) => [`src/checks/${file}`, fs.readFileSync(path.join(CHECKS, file), 'utf8')]));
      dir = appProject(checks);
      writeAppTypes(dir, await loadApp(dir, 'dev'));
      errors = await typeErrors(dir);
    });
    after(() => dir && fs.rmSync(dir, { recursive: true, force: true }));

    const only = (file: string): string => {
      const list = errors[`src/checks/${file}`] ?? [];
      expect(list, `errors of ${file}: ${JSON.stringify(errors, null, 2)}`).to.have.length(1);
      return list[0]!;
    };

    it('compiles the correct uses: ids, invoke payload and result types, scopes in handler, wsHandler and can()', () => {
      expect(Object.keys(errors).filter((file) => !file.startsWith('src/checks/') || file === 'src/checks/correct.ts')).to.deep.equal([]);
    });

    it('a queue id the app does not declare is a compile error naming it', () => {
      expect(only('wrong-queue.ts')).to.contain("Property 'email-outbx' does not exist on type 'Queues'");
    });

    it("a misspelt scope in handler({ scopes }) is a compile error naming it and the declared scopes", () => {
      expect(only('misspelt-handler-scope.ts')).to.contain(`Type '"tasks:wirte"' is not assignable to type '"tasks:read" | "tasks:write"'`);
    });

    it('a misspelt scope on a route with schemas is a compile error naming it', () => {
      expect(only('misspelt-schema-route-scope.ts')).to.contain(`Type '"task:write"' is not assignable to type '"tasks:read" | "tasks:write"'`);
    });

    it('a misspelt scope in wsHandler(fn, { scopes }) is a compile error naming it', () => {
      expect(only('misspelt-ws-scope.ts')).to.contain(`Type '"tasks:raed"' is not assignable to type '"tasks:read" | "tasks:write"'`);
    });

    it('a misspelt scope in ctx.auth.can() is a compile error naming it', () => {
      expect(only('misspelt-can-scope.ts')).to.contain(`'"task:write"' is not assignable to parameter of type '"tasks:read" | "tasks:write"'`);
    });

    it('invoke of a function the app does not have is a compile error naming it', () => {
      expect(only('wrong-invoke-name.ts')).to.match(/Type '"reports\/dayly"' is not assignable to type '("reports\/daily" \| "cleanup"|"cleanup" \| "reports\/daily")'/);
    });

    it("invoke with a payload the function's main does not take is a compile error naming the field", () => {
      expect(only('wrong-invoke-payload.ts')).to.match(/'date' does not exist in type '\{ day: string; \}'/);
    });

    it('a bucket or database id the app does not declare is a compile error naming it', () => {
      expect(only('wrong-bucket.ts')).to.contain(`'"upload"' is not assignable to parameter of type '"uploads"'`);
      expect(only('wrong-database.ts')).to.contain(`'"mian"' is not assignable to parameter of type '"main"'`);
    });
  });

  it('without the generated file every id and scope is a string: the same files compile (existing apps keep compiling)', async () => {
    const checks = Object.fromEntries(fs.readdirSync(CHECKS).filter((file) => file !== 'correct.ts').map((file) => [`src/checks/${file}`, fs.readFileSync(path.join(CHECKS, file), 'utf8')]));
    const dir = appProject(checks);
    try {
      expect(await typeErrors(dir)).to.deep.equal({});
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
