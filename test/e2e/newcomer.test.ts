import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { filesNamingPaths, tempDir } from '../support/temp-dir';
import { runCommand, runOk, startBackground, type Background } from '../../scripts/local-registry/processes';

/**
 * The newcomer path, as a new user walks it: `npm run registry` packs our packages and publishes them (tag `dev`) to a
 * local registry whose uplink is the registry npm is configured with, then, in empty folders, the `fw init` line it
 * prints, `projen new --from @framework/projen`, `projen dev`, `projen synth`, an intent added in .projenrc.ts, and
 * `fw init` for every template with its own `npm test`. Every step prints how long it took.
 */
const repoRoot = path.resolve(__dirname, '..', '..');
const PROJEN = 'projen@0.103.25';
const TEMPLATES = ['api', 'api-database', 'api-queue', 'api-storage', 'fullstack'];

function timed(step: string, seconds: number): void {
  process.stdout.write(`      [e2e] ${step}: ${seconds.toFixed(1)} s\n`);
}

/** The environment of a new user's shell: no variables of the npm script or projen run that started this test. */
function shellEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // CI=true would make projen install with `npm ci`, which a brand-new project (no lockfile yet) cannot do.
    if (/^(npm_|PROJEN_|FW_|INIT_CWD$|NODE_OPTIONS$|CI$)/i.test(key)) continue;
    env[key] = value;
  }
  return env;
}

/**
 * An npm cache of this run's own. Every local release is version 0.1.0, and npx reuses what it installed earlier for
 * the same spec (`-p @framework/cli@dev`) when the version matches, even from another run's, older, packages.
 */
function runCache(workDir: string): NodeJS.ProcessEnv {
  return { npm_config_cache: path.join(workDir, 'npm-cache') };
}

/** A new user's shell whose npm uses the local registry. */
function userEnv(registryUrl: string, workDir: string): NodeJS.ProcessEnv {
  return {
    ...shellEnv(),
    ...runCache(workDir),
    npm_config_registry: registryUrl,
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_prefer_offline: 'true',
  };
}

async function fetchJson(url: string, init: RequestInit = {}): Promise<{ status: number; body: unknown }> {
  // A wedged server fails the step with a message instead of hanging until the suite's timeout.
  const res = await fetch(url, { signal: AbortSignal.timeout(90_000), ...init });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: keep the text for the failure message.
  }
  return { status: res.status, body };
}

/** Runs `npx projen dev --port 0` (or another dev command) and resolves with its base URL once it serves. */
async function startDev(cwd: string, env: NodeJS.ProcessEnv, command: readonly string[] = ['npx', 'projen', 'dev', '--port', '0']): Promise<{ url: string; dev: Background }> {
  const dev = startBackground(command[0]!, command.slice(1), { cwd, env });
  try {
    const match = await dev.waitFor(/serving at (http:\/\/[^\s]+)/, 180_000);
    return { url: match[1]!.replace(/\/$/, ''), dev };
  } catch (error) {
    await dev.stop();
    throw error;
  }
}

describe('e2e: the newcomer path from a registry', function () {
  this.timeout(15 * 60_000);
  let work: { dir: string; remove(): void };
  let registry: { url: string } | undefined;
  let registryServer: Background | undefined;
  let printedInit: string[] = [];
  let env: NodeJS.ProcessEnv;
  let skipReason: string | undefined;

  before(async function () {
    const fwBin = path.join(repoRoot, 'packages', 'cli', 'lib', 'bin', 'fw.js');
    if (!fs.existsSync(fwBin)) {
      skipReason = 'the workspace packages are not built (run `npx projen build:packages`, as `npm test` does first)';
      return;
    }
    work = tempDir('fw-e2e');
    // 1. `npm run registry`, as the README says: build, pack, start verdaccio, publish; it prints what to run next.
    const started = Date.now();
    registryServer = startBackground('npm', ['run', 'registry'], { cwd: repoRoot, env: shellEnv() });
    const printed = await registryServer.waitFor(/Local registry: (http:\/\/\S+)[^]*create a project with fw init:\n\s+(.+)\n[^]*Serving until Ctrl-C/, 600_000);
    timed('npm run registry: packed, published and serving', (Date.now() - started) / 1000);
    registry = { url: printed[1]! };
    printedInit = printed[2]!.trim().split(/\s+/);
    env = userEnv(registry.url, work.dir);
  });

  after(async () => {
    await registryServer?.stop();
    work?.remove();
  });

  beforeEach(function () {
    if (skipReason) {
      // Not faked: the reason is printed with the skipped tests.
      process.stdout.write(`      [e2e] skipped: ${skipReason}\n`);
      this.skip();
    }
  });

  describe('0. the fw init line npm run registry prints', () => {
    it('creates my-app in an empty folder with no registry configured, and its npm run dev answers /health', async () => {
      const parent = path.join(work.dir, 'printed-line');
      fs.mkdirSync(parent);
      expect(printedInit.slice(0, 1), printedInit.join(' ')).to.deep.equal(['npx']);
      expect(printedInit).to.include.members(['fw', 'init', 'my-app', '--registry', registry!.url]);
      // A new user's shell: npm's own registry, nothing pointing at the local one but the printed line.
      const newUser = { ...shellEnv(), ...runCache(work.dir) };
      const init = await runOk(printedInit[0]!, [...printedInit.slice(1), '--yes'], { cwd: parent, env: newUser });
      timed('the printed fw init line (with install)', init.seconds);
      const project = path.join(parent, 'my-app');
      const { url, dev } = await startDev(project, newUser, ['npm', 'run', 'dev', '--', '--port', '0']);
      try {
        const health = await fetchJson(`${url}/health`);
        expect(health.status, `${JSON.stringify(health.body)}\n${dev.output().slice(-3000)}`).to.equal(200);
        expect(health.body).to.deep.include({ status: 'ok' });
      } finally {
        await dev.stop();
      }
    });
  });

  describe('1. npx projen new --from @framework/projen, then projen dev and projen synth', () => {
    let app: string;

    it('creates the project from the registry, with the scope registry in .npmrc and no path of this machine', async () => {
      app = path.join(work.dir, 'newcomer-app');
      fs.mkdirSync(app);
      const result = await runOk(
        'npx',
        ['--yes', '--registry', registry!.url, PROJEN, 'new', '--from', '@framework/projen@dev', '--no-git', '--projen-version', '0.103.25', '--framework-registry', registry!.url],
        { cwd: app, env },
      );
      timed('projen new --from @framework/projen (with install)', result.seconds);
      expect(fs.readFileSync(path.join(app, '.projenrc.ts'), 'utf8')).to.contain('new FrameworkApp(');
      expect(fs.readFileSync(path.join(app, '.npmrc'), 'utf8')).to.contain(`@framework:registry=${registry!.url}`);
      expect(fs.existsSync(path.join(app, 'node_modules', '@framework', 'cli', 'package.json'))).to.equal(true);
      expect(filesNamingPaths(app, [app, repoRoot, os.homedir()])).to.deep.equal([]);
    });

    it('projen dev serves GET /health, and GET /tasks with a minted token', async () => {
      const started = Date.now();
      const { url, dev } = await startDev(app, env);
      try {
        timed('projen dev: up', (Date.now() - started) / 1000);
        const health = await fetchJson(`${url}/health`).catch((error: Error) => {
          throw new Error(`GET /health failed (${error.message})\n--- projen dev output\n${dev.output().slice(-3000)}`);
        });
        expect(health.status, JSON.stringify(health.body)).to.equal(200);
        expect(health.body).to.deep.include({ status: 'ok' });
        expect((await fetchJson(`${url}/tasks`)).status).to.equal(401);
        const minted = await fetchJson(`${url}/_dev/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scopes: ['tasks:read', 'tasks:write'] }) });
        expect(minted.status, JSON.stringify(minted.body)).to.equal(200);
        const token = (minted.body as { access_token: string }).access_token;
        const tasks = await fetchJson(`${url}/tasks`, { headers: { authorization: `Bearer ${token}` } });
        expect(tasks.status, JSON.stringify(tasks.body)).to.equal(200);
        expect(tasks.body).to.have.property('tasks');
      } finally {
        await dev.stop();
      }
    });

    it('projen synth writes a cloud assembly', async function () {
      const result = await runCommand('npx', ['projen', 'synth'], { cwd: app, env, timeoutMs: 300_000 });
      timed('projen synth', result.seconds);
      if (result.code !== 0 && /not available in this version/.test(result.stderr + result.stdout)) {
        process.stdout.write('      [e2e] skipped: fw synth is not built yet in @framework/cli (the infra issue)\n');
        this.skip();
      }
      expect(result.code, `${result.stdout}\n${result.stderr}`).to.equal(0);
      const manifests = findFiles(app, 'manifest.json').filter((f) => !f.includes('node_modules'));
      expect(manifests, 'a cloud assembly manifest.json').to.not.be.empty;
    });

    it('2. a queue added in .projenrc.ts reaches fw.config.ts, and fw dev serves /_dev/invoke/queue/<id>', async () => {
      // Given the user adds a queue intent in .projenrc.ts
      const rcPath = path.join(app, '.projenrc.ts');
      const rc = fs.readFileSync(rcPath, 'utf8');
      const synthCall = /^(\w+)\.synth\(\);$/m.exec(rc);
      expect(synthCall, '.projenrc.ts ends with <project>.synth()').to.not.equal(null);
      fs.writeFileSync(rcPath, rc.replace(synthCall![0], `${synthCall![1]}.addQueue({ id: 'emails', batchSize: 5 });\n${synthCall![0]}`));
      // When projen runs
      const result = await runOk('npx', ['projen'], { cwd: app, env });
      timed('npx projen (queue added)', result.seconds);
      // Then the app declares it and its consumer exists
      expect(fs.readFileSync(path.join(app, 'fw.config.ts'), 'utf8')).to.contain("queues: [{ id: 'emails', batchSize: 5 }]");
      expect(fs.existsSync(path.join(app, 'src', 'queues', 'emails.ts'))).to.equal(true);
      const { url, dev } = await startDev(app, env);
      try {
        const invoked = await fetchJson(`${url}/_dev/invoke/queue/emails`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ to: 'ada@example.com' }) });
        const detail = `${JSON.stringify(invoked.body)}\n--- fw dev output\n${dev.output().slice(-4000)}`;
        expect(invoked.status, detail).to.equal(200);
        expect(invoked.body, detail).to.deep.include({ processed: 1 });
      } finally {
        await dev.stop();
      }
    });
  });

  describe('3. fw init <name> --template <t> --yes, then npm test and fw dev', () => {
    for (const template of TEMPLATES) {
      it(`${template}: npm test passes, and fw dev serves /health and the template's routes`, async () => {
        const parent = path.join(work.dir, `init-${template}`);
        fs.mkdirSync(parent);
        const init = await runOk('npx', ['--yes', '--registry', registry!.url, '-p', '@framework/cli@dev', 'fw', 'init', 'my-app', '--template', template, '--yes', '--registry', registry!.url], {
          cwd: parent,
          env,
        });
        timed(`fw init --template ${template} (with install)`, init.seconds);
        const project = path.join(parent, 'my-app');
        const test = await runOk('npm', ['test'], { cwd: project, env });
        timed(`${template}: npm test`, test.seconds);
        expect(test.stdout).to.match(/\d+ passing/);
        expect(filesNamingPaths(project, [project, repoRoot, os.homedir()])).to.deep.equal([]);
        const started = Date.now();
        const { url, dev } = await startDev(project, env, ['npx', 'fw', 'dev', '--port', '0']);
        try {
          timed(`${template}: fw dev up`, (Date.now() - started) / 1000);
          const health = await fetchJson(`${url}/health`).catch((error: Error) => {
            throw new Error(`GET /health failed (${error.message})\n--- fw dev output\n${dev.output().slice(-3000)}`);
          });
          expect(health.status, JSON.stringify(health.body)).to.equal(200);
          await exerciseTemplate(template, url, dev);
        } finally {
          await dev.stop();
        }
      });
    }
  });
});

/** What each template adds, used through fw dev as a client would: tasks (in PostgreSQL for the database ones), jobs, uploads. */
async function exerciseTemplate(template: string, url: string, dev: Background): Promise<void> {
  const devOutput = () => dev.output();
  const withDatabase = template === 'api-database' || template === 'fullstack';
  const json = { 'content-type': 'application/json' };
  // The templates' app client uses client_credentials only: its tokens are the client's own (no user), as Cognito's.
  const minted = await fetchJson(`${url}/_dev/token`, { method: 'POST', headers: json, body: JSON.stringify({ scopes: ['tasks:read', 'tasks:write'] }) });
  expect(minted.status, JSON.stringify(minted.body)).to.equal(200);
  const auth = { ...json, authorization: `Bearer ${(minted.body as { access_token: string }).access_token}` };
  const detail = (body: unknown) => `${JSON.stringify(body)}\n--- fw dev output\n${devOutput().slice(-3000)}`;

  const created = await fetchJson(`${url}/tasks`, { method: 'POST', headers: auth, body: JSON.stringify({ title: 'Try the template' }) });
  expect(created.status, detail(created.body)).to.equal(201);
  const listed = await fetchJson(`${url}/tasks`, { headers: auth });
  expect(listed.status, detail(listed.body)).to.equal(200);
  // Only a database outlives the function: each route is its own function (as deployed), so the API template's
  // in-memory tasks of POST /tasks are not those GET /tasks sees.
  if (withDatabase) expect((listed.body as { tasks: { id: string }[] }).tasks.map((t) => t.id)).to.include((created.body as { id: string }).id);

  if (template === 'api-queue' || template === 'fullstack') {
    const queued = await fetchJson(`${url}/jobs`, { method: 'POST', headers: auth, body: JSON.stringify({ kind: 'rebuild-report', target: 'march' }) });
    expect(queued.status, detail(queued.body)).to.equal(202);
    expect(queued.body).to.have.property('messageId').that.is.a('string').and.not.equal('');
  }
  if (template === 'api-storage' || template === 'fullstack') {
    const presigned = await fetchJson(`${url}/uploads`, { method: 'POST', headers: auth, body: JSON.stringify({ fileName: 'notes.txt', contentType: 'text/plain' }) });
    expect(presigned.status, detail(presigned.body)).to.equal(201);
    const upload = presigned.body as { url: string; fields: Record<string, string> };
    // The browser's part: the form fields, then the file, straight to storage.
    const form = new FormData();
    for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
    form.append('file', new Blob(['hello from the e2e test'], { type: 'text/plain' }), 'notes.txt');
    const uploaded = await fetch(upload.url, { method: 'POST', body: form, signal: AbortSignal.timeout(60_000) });
    expect(uploaded.status, detail(await uploaded.text())).to.be.within(200, 204);
  }
}

function findFiles(dir: string, name: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...findFiles(full, name));
    else if (entry.name === name) out.push(full);
  }
  return out;
}
