import * as net from 'node:net';
import { expect } from 'chai';
import { DeferredPort } from '../../src/dev/engines/ports.js';

/**
 * The dev database proxy: a port published before the database is up. A client connected early waits, then talks to
 * the database through it; query-sized messages go back and forth one at a time, as a database protocol does.
 */
describe('dev database proxy (DeferredPort)', () => {
  let echo: net.Server;
  let proxy: DeferredPort;

  beforeEach(async () => {
    echo = net.createServer((socket) => socket.on('data', (chunk) => socket.write(chunk)));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    proxy = await DeferredPort.listen('127.0.0.1');
  });
  afterEach(async () => {
    await proxy.close();
    await new Promise<void>((resolve) => echo.close(() => resolve()));
  });

  /** Sends `count` small messages, each after the previous answer, and returns the answers. */
  async function pingPong(socket: net.Socket, count: number): Promise<string[]> {
    const answers: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const answer = new Promise<string>((resolve) => socket.once('data', (chunk) => resolve(chunk.toString('utf8'))));
      socket.write(`q${i}`);
      answers.push(await answer);
    }
    return answers;
  }

  it('holds a connection made before the database is up, then forwards each message both ways', async () => {
    let ready!: (port: number) => void;
    proxy.forwardTo(new Promise<number>((resolve) => (ready = resolve)));
    const client = net.connect(proxy.port, '127.0.0.1');
    await new Promise<void>((resolve) => client.once('connect', () => resolve()));
    ready((echo.address() as net.AddressInfo).port);
    expect(await pingPong(client, 20)).to.deep.equal(Array.from({ length: 20 }, (_, i) => `q${i}`));
    client.destroy();
  });

  it('refuses connections when the database failed to start', async () => {
    proxy.forwardTo(Promise.reject(new Error('the engine did not start')));
    const client = net.connect(proxy.port, '127.0.0.1');
    await new Promise<void>((resolve) => client.once('close', () => resolve()));
    expect(client.destroyed).to.equal(true);
  });
});
