import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'chai';
import { DevServer } from '../../src/dev/dev-server.js';
import { eventually } from './helpers.js';
import { smallProject } from './small-project.js';

describe('fw dev type-checks in the background', function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  const servers: DevServer[] = [];
  after(async () => {
    for (const server of servers) await server.stop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  const start = async (files: Record<string, string>, removeTsconfig = false) => {
    const dir = smallProject(files);
    dirs.push(dir);
    if (removeTsconfig) fs.rmSync(path.join(dir, 'tsconfig.json'));
    const lines: string[] = [];
    const log = { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), error: (m: string) => lines.push(m) };
    const server = await DevServer.start({ rootDir: dir, port: 0, log, print: () => undefined, activityLog: false, typecheck: true });
    servers.push(server);
    await server.settled;
    return { dir, server, lines };
  };

  it('prints type errors with file and line, serves the route regardless, and says when they are fixed', async () => {
    const { dir, server, lines } = await start({ 'src/routes/count/get.ts': `const count: number = 'three';\nexport const main = async () => ({ count });\n` });
    // esbuild serves it: a type error never blocks a request.
    expect((await fetch(`${server.url}/count`)).status).to.equal(200);
    const report = await eventually(async () => lines.find((l) => l.startsWith('typecheck: 1 type error')), 90_000, 'the type error');
    expect(report).to.contain('src/routes/count/get.ts(1,7): error TS2322').and.contain("Type 'string' is not assignable to type 'number'");
    fs.writeFileSync(path.join(dir, 'src/routes/count/get.ts'), `const count: number = 3;\nexport const main = async () => ({ count });\n`);
    await eventually(async () => lines.find((l) => l === 'typecheck: no type errors'), 90_000, 'the all-clear');
  });

  it('skips with a note when the project has no tsconfig.json', async () => {
    const { lines } = await start({ 'src/routes/hello/get.ts': `export const main = async () => ({ hi: true });\n` }, true);
    expect(lines).to.include('typecheck: skipped (no tsconfig.json in the project)');
  });
});
