import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What the server does with one request. */
export type Step =
  | { readonly status: number; readonly headers?: Record<string, string>; readonly body?: unknown }
  | 'hang'
  | 'drop';

export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/**
 * A real HTTP server on 127.0.0.1 and a free port that answers each request with the next scripted step (the last
 * step repeats): a status, a hang (never answers) or a dropped connection.
 */
export class ScriptedServer {
  readonly seen: SeenRequest[] = [];
  private steps: Step[] = [];
  private readonly sockets = new Set<Socket>();
  private constructor(private readonly server: Server, readonly url: string) {}

  static async start(): Promise<ScriptedServer> {
    let self: ScriptedServer | undefined;
    const server = createServer((req, res) => self!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    self = new ScriptedServer(server, `http://127.0.0.1:${port}`);
    server.on('connection', (socket) => {
      self!.sockets.add(socket);
      socket.on('close', () => self!.sockets.delete(socket));
    });
    return self;
  }

  script(...steps: Step[]): void {
    this.steps = steps;
    this.seen.length = 0;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      this.seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const step = this.steps.length > 1 ? this.steps.shift()! : this.steps[0] ?? { status: 200 };
      if (step === 'hang') return;
      if (step === 'drop') {
        req.socket.destroy();
        return;
      }
      const isText = typeof step.body === 'string';
      res.writeHead(step.status, { 'content-type': isText ? 'text/plain' : 'application/json', ...step.headers });
      res.end(step.body === undefined ? '' : isText ? (step.body as string) : JSON.stringify(step.body));
    });
  }
}
