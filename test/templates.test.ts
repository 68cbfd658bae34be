import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { AppTypes } from '../src/components';
import { FrameworkApp, FrameworkTemplate } from '../src/index';
import { TEMPLATES } from '../src/templates/catalog';
import { filesNamingPaths, listFiles, tempDir } from './support/temp-dir';

const run = promisify(execFile);
const repoRoot = path.resolve(__dirname, '..');
const bin = (name: string) => path.join(repoRoot, 'node_modules', '.bin', name);

/**
 * Each template, generated through FrameworkApp into an empty folder, is a complete working project: its config is
 * valid for core's `defineApp` (every intent has its handler file), it type-checks, and its own tests pass. The
 * project uses this repository's packages (its `node_modules` links to the repository's, where the workspace
 * packages are), so this runs without a registry; `test/e2e` does the same from published packages.
 */
describe('templates', function () {
  this.timeout(180_000);
  const postBefore = process.env.PROJEN_DISABLE_POST;
  before(() => {
    process.env.PROJEN_DISABLE_POST = 'true';
  });
  after(() => {
    if (postBefore === undefined) delete process.env.PROJEN_DISABLE_POST;
    else process.env.PROJEN_DISABLE_POST = postBefore;
  });

  for (const template of Object.values(FrameworkTemplate)) {
    describe(`${template} (${TEMPLATES[template].description})`, () => {
      let project: { dir: string; remove(): void };
      let app: FrameworkApp;
      before(() => {
        project = tempDir(`fw-template-${template}`);
        app = new FrameworkApp({ name: 'my-app', outdir: project.dir, template });
        app.synth();
        fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(project.dir, 'node_modules'), 'dir');
      });
      after(() => project?.remove());

      it('has the sample files of its layers and no file naming a path of this machine', () => {
        const files = listFiles(project.dir);
        expect(files).to.include.members(['fw.config.ts', 'config/base.ts', 'config/security.ts', 'config/dev.ts', 'config/prod.ts', 'src/routes/health/get.ts', 'tests/health.test.ts']);
        expect(filesNamingPaths(project.dir, [project.dir, repoRoot, os.homedir()])).to.deep.equal([]);
      });

      it("is a valid app for core's defineApp (every intent has its handler file)", async () => {
        const script = "const m = await import(process.argv[1]); const app = m.default; console.log(JSON.stringify({ routes: app.routes.map((r) => r.routeKey), queues: app.queues.map((q) => q.id), databases: app.databases.map((d) => d.id), storage: app.storage.map((b) => b.id) }));";
        const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, path.join(project.dir, 'fw.config.ts')], {
          cwd: project.dir,
          env: { ...process.env, FW_PROJECT_ROOT: project.dir, FW_STAGE: 'dev' },
        });
        const app = JSON.parse(stdout.trim().split('\n').pop() as string) as { routes: string[]; queues: string[]; databases: string[]; storage: string[] };
        expect(app.routes).to.include.members(['GET /health', 'GET /tasks', 'POST /tasks']);
        expect(app.queues).to.deep.equal(TEMPLATES[template].queues.map((q) => q.id));
        expect(app.databases).to.deep.equal(TEMPLATES[template].databases.map((d) => d.id));
        expect(app.storage).to.deep.equal(TEMPLATES[template].storage.map((s) => s.id));
      });

      it('writes the app types after the install (AppTypes runs fw types): its queue ids and scopes', () => {
        const typesFile = path.join(project.dir, AppTypes.FILE);
        fs.rmSync(path.join(project.dir, '.fw'), { recursive: true, force: true });
        // What projen runs once it installed the dependencies (skipped above with PROJEN_DISABLE_POST: no install here).
        app.components.find((c): c is AppTypes => c instanceof AppTypes)!.postSynthesize();
        const text = fs.readFileSync(typesFile, 'utf8');
        const queues = TEMPLATES[template].queues.map((q) => JSON.stringify(q.id)).join(' | ') || 'never';
        expect(text).to.contain(`    queues: ${queues};`);
        expect(text).to.match(/ {4}scopes: "tasks:read" \| "tasks:write"/);
      });

      it('type-checks with its typecheck task (fw types, then tsc --noEmit), the generated types included', async () => {
        const tasks = JSON.parse(fs.readFileSync(path.join(project.dir, '.projen', 'tasks.json'), 'utf8')) as { tasks: Record<string, { steps: { exec: string }[] }> };
        const command = tasks.tasks['typecheck']!.steps.map((step) => step.exec).join(' && ');
        expect(command).to.equal('fw types && tsc --noEmit');
        fs.rmSync(path.join(project.dir, '.fw'), { recursive: true, force: true });
        const env = { ...process.env, PATH: `${path.join(project.dir, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH}` };
        await run('sh', ['-c', command], { cwd: project.dir, env }).catch((error: { stdout?: string; stderr?: string }) => {
          throw new Error(`the typecheck task failed in the generated ${template} project:\n${error.stdout ?? ''}${error.stderr ?? String(error)}`);
        });
        expect(fs.existsSync(path.join(project.dir, AppTypes.FILE))).to.equal(true);
      });

      it('passes its own tests (npm test)', async () => {
        // `npm test` as a user runs it: the project's test task (mocha over tests/), nothing from a registry.
        const result = await run('npm', ['test'], { cwd: project.dir, env: { ...process.env, PROJEN_DISABLE_POST: undefined, npm_config_offline: 'true' } }).catch((error: { stdout?: string; stderr?: string }) => {
          throw new Error(`the ${template} project's tests failed:\n${error.stdout ?? ''}\n${error.stderr ?? String(error)}`);
        });
        expect(result.stdout).to.match(/\d+ passing/);
        expect(result.stdout).not.to.match(/failing|pending/);
        // Every suite written with @framework/testing ran (the app started in the test process, users signed in by
        // role): each describe of tests/app/ is in the output.
        const appTests = listFiles(path.join(project.dir, 'tests', 'app')).filter((f) => f.endsWith('.test.ts'));
        expect(appTests).to.not.be.empty;
        for (const file of appTests) {
          const source = fs.readFileSync(path.join(project.dir, 'tests', 'app', file), 'utf8');
          expect(source, file).to.contain("from '../support/app.js'");
          for (const [, title] of source.matchAll(/^describe\('([^']+)'/gm)) expect(result.stdout, `${file}: ${title}`).to.contain(title!);
        }
      });
    });
  }
});
