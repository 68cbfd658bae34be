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

/**
 * A port held by a listening socket of ours from the start of `fw dev` until its HTTP server takes that very socket
 * over. `fw dev` needs its URL before it listens (the engines and the functions' environment carry it) and starts its
 * engines in between (seconds): a port only found free would meanwhile be free for anyone, another server's
 * `listen(0)` or the local end of an outgoing connection, both of which the OS picks from the same range.
 */
export class PortReservation {
  private released?: Promise<void>;

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
  ) {}

  /** Holds `port` on `host` (0: any free one). Rejects with the listen error (`EADDRINUSE` when it is taken). */
  static async take(host: string, port: number): Promise<PortReservation> {
    const server = net.createServer();
    // While only held, the port does not keep the process alive, and a connection to it is closed: nothing answers yet.
    server.unref();
    server.on('connection', (socket) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    return new PortReservation(server, (server.address() as net.AddressInfo).port);
  }

  /**
   * The held socket, for `server.listen()` of the server meant for it (Node.js listens on a handle it is given as
   * `handle`): the port is never free in between. This reservation lets go of it: `release()` does nothing after.
   */
  handOver(): { readonly handle: unknown; readonly host: string } {
    if (this.released) throw new Error(`the reservation of port ${this.port} was already released`);
    this.released = Promise.resolve();
    // The server taking it over keeps the process alive like any listening server.
    this.server.ref();
    // The address it is bound to, never a name: Fastify would bind each other address of a name (`localhost`) too.
    const { address } = this.server.address() as net.AddressInfo;
    return { handle: (this.server as unknown as { _handle: unknown })._handle, host: address };
  }

  /** Lets the port go (start-up failed). Safe to call again. */
  release(): Promise<void> {
    this.released ??= new Promise<void>((resolve) => this.server.close(() => resolve()));
    return this.released;
  }
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
