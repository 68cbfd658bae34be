import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'chai';
import { routeFileFor } from '../../src/commands/generate.js';
import { GenerateError } from '../../src/errors.js';
import { FW_BIN, copyExample } from '../dev/helpers.js';

function fw(dir: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [FW_BIN, 'g', ...args], { cwd: dir, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('fw g route', function () {
  this.timeout(30_000);
  let dir: string;
  before(() => (dir = copyExample()));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('creates src/routes/<path>/<method>.ts guarded by the scope (the README example)', () => {
    const result = fw(dir, 'route', 'tasks/[id]/comments', '-m', 'post', '--scopes', 'tasks:write');
    expect(result.status, result.stderr).to.equal(0);
    expect(result.stdout).to.contain('src/routes/tasks/[id]/comments/post.ts').and.to.contain('POST /tasks/{id}/comments');
    const text = fs.readFileSync(path.join(dir, 'src/routes/tasks/[id]/comments/post.ts'), 'utf8');
    expect(text).to.contain("export const main = handler(").and.to.contain("{ scopes: ['tasks:write'] }").and.to.contain('ctx.pathParams.id');
  });

  it('creates a public route without --scopes', () => {
    const result = fw(dir, 'route', '/status', '-m', 'GET');
    expect(result.status, result.stderr).to.equal(0);
    expect(fs.readFileSync(path.join(dir, 'src/routes/status/get.ts'), 'utf8')).to.not.contain('scopes');
  });

  it('refuses to overwrite an existing route (tasks/[id] put exists in the example)', () => {
    const before = fs.readFileSync(path.join(dir, 'src/routes/tasks/[id]/put.ts'), 'utf8');
    const result = fw(dir, 'route', 'tasks/[id]', '-m', 'put', '--scopes', 'tasks:write');
    expect(result.status).to.equal(1);
    expect(result.stderr).to.contain('already defines PUT /tasks/{id}');
    expect(fs.readFileSync(path.join(dir, 'src/routes/tasks/[id]/put.ts'), 'utf8')).to.equal(before);
  });

  it('rejects a bad method, a bad path and an undeclared scope with a clear message and no file', () => {
    const cases: [string[], RegExp][] = [
      [['route', 'reports', '-m', 'fetch'], /"fetch" is not an HTTP method/],
      [['route', 'reports/[bad id]', '-m', 'get'], /not a path segment/],
      [['route', '../outside', '-m', 'get'], /not a path segment/],
      [['route', 'reports', '-m', 'get', '--scopes', 'reports:read'], /reports:read not declared in config\/security.ts/],
      [['route', '-m', 'get'], /route path is missing/],
      [['widget', 'x'], /fw g knows "route"/],
    ];
    for (const [args, message] of cases) {
      const result = fw(dir, ...args);
      expect(result.status, args.join(' ')).to.equal(1);
      expect(result.stderr, args.join(' ')).to.match(message);
      expect(result.stderr).to.not.contain('    at ');
    }
    expect(fs.existsSync(path.join(dir, 'src/routes/reports'))).to.equal(false);
    expect(fs.existsSync(path.join(dir, 'outside'))).to.equal(false);
  });

  it('maps paths like discovery does', () => {
    expect(routeFileFor('tasks/[id]', 'PUT', 'src/routes')).to.deep.equal({ file: 'src/routes/tasks/[id]/put.ts', gatewayPath: '/tasks/{id}', params: ['id'] });
    expect(routeFileFor('files/[...path]', 'get', 'src/routes').gatewayPath).to.equal('/files/{path+}');
    expect(() => routeFileFor('a/[x]/[x]', 'get', 'src/routes')).to.throw(GenerateError, /appears twice/);
  });
});
