import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { startDev } from './helpers.js';
import { smallProject } from './small-project.js';

/**
 * `fw dev` loads an engine's modules only when the app declares its intent: an app with no database or storage does
 * not import `pg`, `@framework/data` or the storage engine (busboy) at all. (The example's tests exercise each engine
 * once loaded: databases, storage, queues, crons.) Every module the process resolves is recorded by a module hook.
 */
describe('fw dev loads engine modules only for the intents the app declares', function () {
  this.timeout(120_000);
  let dir: string | undefined;
  let hooks: string | undefined;
  afterEach(() => {
    for (const d of [dir, hooks]) if (d) fs.rmSync(d, { recursive: true, force: true });
    dir = hooks = undefined;
  });

  it('serves a 2-route app without intents without importing pg, @framework/data, the storage engine, jose or ws', async () => {
    hooks = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-lazy-hooks-'));
    const record = path.join(hooks, 'resolved.txt');
    fs.writeFileSync(
      path.join(hooks, 'hooks.mjs'),
      `import * as fs from 'node:fs';\nexport async function resolve(specifier, context, next) {\n  const resolved = await next(specifier, context);\n  fs.appendFileSync(${JSON.stringify(record)}, resolved.url + '\\n');\n  return resolved;\n}\n`,
    );
    fs.writeFileSync(path.join(hooks, 'register.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(path.join(hooks, 'hooks.mjs')).href)});\n`);
    dir = smallProject(
      {
        'src/routes/health/get.ts': `export const main = async () => ({ statusCode: 200, body: 'ok' });\n`,
        'src/routes/items/get.ts': `export const main = async () => ({ statusCode: 200, body: '[]' });\n`,
      },
      '{}',
    );
    const previous = process.env.NODE_OPTIONS;
    process.env.NODE_OPTIONS = `${previous ?? ''} --import ${pathToFileURL(path.join(hooks, 'register.mjs')).href}`;
    const starting = startDev(dir);
    if (previous === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = previous;
    const dev = await starting;
    try {
      const response = await fetch(`${dev.url}/health`);
      expect(response.status).to.equal(200);
    } finally {
      await dev.stop();
    }
    const resolved = fs.readFileSync(record, 'utf8');
    // The record works: the dev server's own modules are in it (lib/dev/dev-server.js, or the bundle's chunk of it,
    // lib/bundle/dev-server-<hash>.js, which the fw executable runs once the bundle is built: scripts/bundle.mjs).
    expect(resolved).to.match(/\/dev-server(-[A-Z0-9]+)?\.js\n/);
    // Nor the token verifier (jose, aws-jwt-verify: no route checks a token yet) nor the WebSocket engine (`ws`), nor
    // the billing engine's package (an app without `billing`).
    for (const module of ['/node_modules/pg/', '/packages/data/', '/node_modules/@framework/data/', '/packages/storage/lib/local/', 'busboy', '/node_modules/jose/', '/node_modules/aws-jwt-verify/', '/node_modules/ws/', '/engines/ws.js', '/packages/pro-billing/', '/node_modules/@framework-pro/billing/', '/node_modules/stripe/']) {
      expect(resolved, module).not.to.contain(module);
    }
    // The WebSocket engine's chunk of the bundle (lib/bundle/ws-<hash>.js), when the bundle ran.
    expect(resolved).not.to.match(/\/bundle\/ws-[A-Z0-9]+\.js\n/);
  });
});
