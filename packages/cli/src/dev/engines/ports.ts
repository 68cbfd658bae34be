import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';

/** A TCP port free on `host` right now (the OS picks it). */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Whether `port` on `host` is taken right now (tried by listening on it a moment; any other failure is thrown). */
export function portInUse(host: string, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(true) : reject(error)));
    server.listen(port, host, () => server.close(() => resolve(false)));
  });
}

/** The absolute path of an executable on PATH, or undefined. */
export function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * A listening port that exists before the server behind it: connections wait until `target` resolves, then are
 * piped to it. Lets `fw dev` publish a database's address (and answer HTTP) while the database is still starting.
 */
export class DeferredPort {
  private readonly sockets = new Set<net.Socket>();
  private target?: Promise<number>;

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
  ) {}

  static async listen(host: string): Promise<DeferredPort> {
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, host, () => resolve());
    });
    const deferred = new DeferredPort(server, (server.address() as net.AddressInfo).port);
    server.on('connection', (socket) => deferred.accept(socket, host));
    return deferred;
  }

  /** Where connections go once the real server is up (a rejection refuses them). */
  forwardTo(target: Promise<number>): void {
    this.target = target;
    target.catch(() => undefined);
  }

  private accept(client: net.Socket, host: string): void {
    // Database protocols are request/response in small writes: with Nagle's algorithm on either hop, a write waits
    // for the peer's delayed ACK (~40 ms per query).
    client.setNoDelay(true);
    this.sockets.add(client);
    client.on('close', () => this.sockets.delete(client));
    client.on('error', () => client.destroy());
    const target = this.target ?? Promise.reject(new Error('no target'));
    target.then(
      (port) => {
        if (client.destroyed) return;
        const upstream = net.connect(port, host);
        upstream.setNoDelay(true);
        this.sockets.add(upstream);
        upstream.on('close', () => {
          this.sockets.delete(upstream);
          client.destroy();
        });
        upstream.on('error', () => client.destroy());
        client.on('close', () => upstream.destroy());
        client.pipe(upstream);
        upstream.pipe(client);
      },
      () => client.destroy(),
    );
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
