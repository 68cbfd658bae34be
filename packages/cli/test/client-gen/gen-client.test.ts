import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';
import { CLIENT_FILE, GENERATED_HEADER, renderClient } from '../../src/client-gen/index.js';
import { DevServer } from '../../src/dev/index.js';
import { refreshClient } from '../../src/dev/client-refresh.js';
import { loadApp } from '../../src/app-loader/index.js';
import { FW_BIN, REPO, eventually } from '../dev/helpers.js';
import { smallProject } from '../dev/small-project.js';

function fw(dir: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  // Without the FW_* variables an earlier test of this process may have left (an in-process app load sets FW_STAGE):
  // the command must take its defaults, as in a developer's shell.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('FW_')));
  const result = spawnSync(process.execPath, [FW_BIN, ...args], { cwd: dir, encoding: 'utf8', env });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Routes with zod schemas, a typed body without schema, a 204, a parameter, nested routes and `response` per status. */
const ROUTES: Record<string, string> = {
  'src/lib/schemas.ts': `import { z } from 'zod';
export const newItem = z.object({ name: z.string().min(1), count: z.number().int().optional() });
export const item = z.object({ id: z.string(), name: z.string(), count: z.number() });
export const filter = z.object({ q: z.string().optional(), sort: z.enum(['name', 'count']).optional() });
`,
  'src/routes/items/post.ts': `import { handler } from '@framework/runtime';
import { item, newItem } from '../../lib/schemas.js';
export const main = handler({ scopes: ['items:read'], body: newItem, response: item, fn: async (body) => ({ id: '1', name: body.name, count: body.count ?? 0 }) });
`,
  'src/routes/items/get.ts': `import { handler } from '@framework/runtime';
import { filter } from '../../lib/schemas.js';
export const main = handler({ query: filter, fn: async (_body, ctx) => ({ items: [{ id: '1', q: ctx.input.query.q ?? '' }] }) });
`,
  'src/routes/items/[id]/patch.ts': `import { handler } from '@framework/runtime';
export const main = handler(async (body: { name?: string }, ctx) => ({ id: ctx.pathParams.id!, renamed: body.name !== undefined }));
`,
  'src/routes/items/[id]/delete.ts': `import { handler } from '@framework/runtime';
export const main = handler(async () => undefined);
`,
  'src/routes/items/[id]/tags/get.ts': `import { handler } from '@framework/runtime';
export const main = handler(async () => ({ tags: ['a'] }));
`,
  'src/routes/jobs/post.ts': `import { handler, response } from '@framework/runtime';
import * as v from 'valibot';
import { z } from 'zod';
const job = z.object({ id: z.string(), state: z.enum(['done']) });
const accepted = v.object({ jobId: v.string() });
export const main = handler({ body: z.object({ kind: z.string() }), response: { 201: job, 202: accepted }, fn: async () => response({ statusCode: 202, body: { jobId: 'j' } }) });
`,
};

/** How a project's tests or front end use the client: each @ts-expect-error line must be an error, nothing else. */
const USE_CLIENT = `import { createClient } from './client.gen.js';
const client = createClient({ baseUrl: 'http://127.0.0.1:3000', token: async () => 'token' });
export async function use(): Promise<string[]> {
  const created = await client.items.post({ name: 'a' }, { idempotencyKey: 'k' });
  const count: number = created.count;
  const list = await client.items.get({ query: { sort: 'name' } });
  const q: string = list.items[0]!.q;
  const patched = await client.items.byId('1').patch({ name: 'b' });
  const renamed: boolean = patched.renamed;
  const deleted: undefined = await client.items.byId(2).delete();
  const tags: string[] = (await client.items.byId('1').tags.get()).tags;
  // @ts-expect-error: a wrong body field
  await client.items.post({ nmae: 'a' });
  // @ts-expect-error: a body field of the wrong type
  await client.items.post({ name: 'a', count: '2' });
  // @ts-expect-error: the body is required
  await client.items.post();
  // @ts-expect-error: a query value the schema does not allow
  await client.items.get({ query: { sort: 'size' } });
  // @ts-expect-error: a result field that does not exist
  created.title;
  // @ts-expect-error: a route that does not exist
  await client.items.byId('1').put({});
  // A route declaring \`response\` per status: the result is the union of the declared outputs.
  const job = await client.jobs.post({ kind: 'export' });
  const jobRef: string = 'jobId' in job ? job.jobId : \`\${job.id}:\${job.state}\`;
  // @ts-expect-error: \`state\` is only on the 201 answer, not on the 202 one
  job.state;
  // @ts-expect-error: a field neither declared status has
  job.other;
  return [String(count), q, String(renamed), String(deleted), ...tags, jobRef];
}
`;

/** Diagnostics of the project compiled with its own tsconfig. */
function typeErrors(dir: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(dir, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => expect.fail(String(d.messageText)) })!;
  const program = ts.createProgram(config.fileNames, config.options);
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? `${path.relative(dir, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('fw gen client', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => (dir = smallProject(ROUTES)));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes src/client.gen.ts with a method per route, and says so', () => {
    const result = fw(dir, 'gen', 'client');
    expect(result.status, result.stderr).to.equal(0);
    expect(result.stdout).to.contain(`wrote ${CLIENT_FILE} (6 routes)`);
    const text = fs.readFileSync(path.join(dir, CLIENT_FILE), 'utf8');
    expect(text.startsWith(GENERATED_HEADER)).to.equal(true);
    expect(text).to.contain("post: t.bodyCall<typeof R4>('POST', '/items')").and.contain("patch: t.bodyCall<typeof R1>('PATCH', p0)").and.contain("get: t.call<typeof R2>('GET', `${p0}/tags`)");
    // Again: nothing changed, nothing written
    const stamp = fs.statSync(path.join(dir, CLIENT_FILE)).mtimeMs;
    expect(fw(dir, 'gen', 'client').stdout).to.contain(`unchanged: ${CLIENT_FILE}`);
    expect(fs.statSync(path.join(dir, CLIENT_FILE)).mtimeMs).to.equal(stamp);
  });

  it("types every call from the route files: a wrong body field, query value or result field is a compile error", () => {
    fs.writeFileSync(path.join(dir, 'src/use-client.ts'), USE_CLIENT);
    try {
      expect(typeErrors(dir)).to.deep.equal([]);
      // The same wrong field without the expectation: the error names it
      fs.writeFileSync(path.join(dir, 'src/use-client.ts'), USE_CLIENT.replace('  // @ts-expect-error: a wrong body field\n', ''));
      const errors = typeErrors(dir);
      expect(errors).to.have.length(1);
      expect(errors[0]).to.match(/^src\/use-client\.ts:12: .*'nmae'/s);
    } finally {
      fs.rmSync(path.join(dir, 'src/use-client.ts'));
    }
  });

  it('refuses to overwrite a src/client.gen.ts it did not write, and an unknown kind', () => {
    const own = smallProject({ [CLIENT_FILE]: 'export const mine = 1;\n' });
    try {
      const result = fw(own, 'gen', 'client');
      expect(result.status).to.equal(1);
      expect(result.stderr).to.contain('src/client.gen.ts exists and fw gen client did not write it');
      expect(fs.readFileSync(path.join(own, CLIENT_FILE), 'utf8')).to.equal('export const mine = 1;\n');
      const unknown = fw(own, 'gen', 'server');
      expect(unknown.status).to.equal(1);
      expect(unknown.stderr).to.contain('fw gen knows "client"');
    } finally {
      fs.rmSync(own, { recursive: true, force: true });
    }
  });

  it('fw dev rewrites the client when a route file is added or removed', async () => {
    const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const server = await DevServer.start({ rootDir: dir, port: 0, log, print: () => undefined });
    try {
      await server.settled;
      const client = () => fs.readFileSync(path.join(dir, CLIENT_FILE), 'utf8');
      fs.mkdirSync(path.join(dir, 'src/routes/reports'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'src/routes/reports/get.ts'), `export const main = async () => ({ ok: true });\n`);
      await eventually(async () => (client().includes("reports: {\n      /** GET /reports") ? true : undefined), 20_000, 'the client with GET /reports');
      fs.rmSync(path.join(dir, 'src/routes/reports'), { recursive: true });
      await eventually(async () => (client().includes('/reports') ? undefined : true), 20_000, 'the client without GET /reports');
    } finally {
      await server.stop();
    }
  });

  it('fw dev writes no client into a project that has none', async () => {
    const none = smallProject({ 'src/routes/a/get.ts': `export const main = async () => ({});\n` });
    try {
      refreshClient(none, await loadApp(none, 'dev'), { info: () => undefined, warn: () => undefined, error: () => undefined });
      expect(fs.existsSync(path.join(none, CLIENT_FILE))).to.equal(false);
    } finally {
      fs.rmSync(none, { recursive: true, force: true });
    }
  });

  it("the example's committed client is what fw gen client writes for its routes", async () => {
    const example = path.join(REPO, 'examples', 'tasks-api');
    const app = await loadApp(example, 'dev');
    const committed = fs.readFileSync(path.join(example, CLIENT_FILE), 'utf8');
    expect(committed, 'examples/tasks-api/src/client.gen.ts is out of date: run npm run gen:client in examples/tasks-api').to.equal(renderClient(app.routes, 'src'));
  });
});
