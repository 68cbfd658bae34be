import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { copyExampleApp } from './fixture.js';
import { startFwDev, type FwDevProcess } from './fw-dev-process.js';

const execFileAsync = promisify(execFile);

/**
 * The acceptance path of the storage issue, on the example app under `fw dev`: a route returns a presigned upload,
 * curl uploads a file to it, a second route lists the task's files and the listed URL downloads it.
 */
describe('example app: task attachments on fw dev', function () {
  this.timeout(180_000);
  let rootDir: string;
  let server: FwDevProcess;

  const token = async (sub: string) => {
    const res = await fetch(`${server.url}/_dev/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scopes: ['tasks:read', 'tasks:write'], sub, tenant: 'acme' }) });
    return ((await res.json()) as { access_token: string }).access_token;
  };
  const call = async (method: string, route: string, bearer: string, body?: unknown) => {
    const res = await fetch(`${server.url}${route}`, { method, headers: { authorization: `Bearer ${bearer}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  before(async () => {
    rootDir = await copyExampleApp();
    server = await startFwDev(rootDir, 120_000);
  });
  after(async () => {
    await server?.stop();
    await rm(rootDir, { recursive: true, force: true });
  });

  it('presigns, curl uploads, the list route shows the file and its URL downloads it', async function () {
    const ada = await token('ada');
    const presigned = await call('POST', '/tasks/42/attachments', ada, { fileName: 'notes.txt', contentType: 'text/plain' });
    expect(presigned.status).to.equal(201);
    const { url, fields } = presigned.body as { url: string; fields: Record<string, string> };

    const file = path.join(rootDir, 'notes.txt');
    await writeFile(file, 'hello attachment');
    let status: string;
    try {
      const args = [...Object.entries(fields).flatMap(([n, v]) => ['--form-string', `${n}=${v}`]), '-F', `file=@${file};type=text/plain`, '-s', '-o', '/dev/null', '-w', '%{http_code}', url];
      status = (await execFileAsync('curl', args)).stdout;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      // No curl on this machine: the same multipart form through fetch.
      const form = new FormData();
      for (const [n, v] of Object.entries(fields)) form.append(n, v);
      form.append('file', new Blob(['hello attachment'], { type: 'text/plain' }), 'notes.txt');
      status = String((await fetch(url, { method: 'POST', body: form })).status);
    }
    expect(status).to.equal('204');

    const listed = await call('GET', '/tasks/42/attachments', ada);
    const attachments = listed.body.attachments as { name: string; size: number; downloadUrl: string }[];
    expect(attachments.map((a) => [a.name, a.size])).to.deep.equal([['notes.txt', 16]]);
    expect(await (await fetch(attachments[0]!.downloadUrl)).text()).to.equal('hello attachment');

    // Another user sees none of them; a refused content type is the client's 400
    expect((await call('GET', '/tasks/42/attachments', await token('bob'))).body.attachments).to.deep.equal([]);
    expect((await call('POST', '/tasks/42/attachments', ada, { fileName: 'run.sh', contentType: 'application/x-sh' })).status).to.equal(400);
  });
});
