import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'chai';
import WebSocket from 'ws';
import { DevServer } from '../../src/dev/dev-server.js';
import { smallProject } from './small-project.js';

/**
 * WebSocket routes are reloaded like HTTP routes: the message that arrives after a save is served by the code on
 * disk, even before a file event (the watcher is off here, so only the check at each message can see the change).
 */
describe('fw dev WebSocket routes are hot reloaded like HTTP routes', function () {
  this.timeout(120_000);
  let dir: string;
  let server: DevServer;
  let socket: WebSocket;

  before(async () => {
    dir = smallProject(
      {
        'src/ws/$default.ts': [`import { wsHandler } from '@framework/runtime';`, `export const main = wsHandler(async (_message, ctx, service) => { await service.ws.send(ctx.connectionId, { route: ctx.routeKey, version: 1 }); });`, ''].join('\n'),
      },
      '{}',
    );
    server = await DevServer.start({ rootDir: dir, port: 0, log: { info: () => undefined, warn: () => undefined, error: () => undefined }, print: () => undefined, activityLog: false, watch: false });
    await server.settled;
    socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/_ws`);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  });
  after(async () => {
    socket?.terminate();
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  function ask(message: unknown): Promise<{ route: string; version: number }> {
    return new Promise((resolve) => {
      socket.once('message', (data: Buffer) => resolve(JSON.parse(data.toString('utf8'))));
      socket.send(JSON.stringify(message));
    });
  }

  it('answers the first message after an edit of a ws route file with the edited code', async () => {
    expect(await ask({ n: 1 })).to.deep.equal({ route: '$default', version: 1 });
    fs.writeFileSync(path.join(dir, 'src/ws/$default.ts'), fs.readFileSync(path.join(dir, 'src/ws/$default.ts'), 'utf8').replace('version: 1', 'version: 2'));
    expect(await ask({ n: 2 })).to.deep.equal({ route: '$default', version: 2 });
  });

  it('routes the first message naming a route file added while running to that file, and no longer to one removed', async () => {
    const ping = path.join(dir, 'src/ws/ping.ts');
    fs.writeFileSync(ping, [`import { wsHandler } from '@framework/runtime';`, `export const main = wsHandler(async (_message, ctx, service) => { await service.ws.send(ctx.connectionId, { route: ctx.routeKey, version: 1 }); });`, ''].join('\n'));
    expect(await ask({ action: 'ping' })).to.deep.equal({ route: 'ping', version: 1 });
    fs.rmSync(ping);
    expect((await ask({ action: 'ping' })).route).to.equal('$default');
  });
});
