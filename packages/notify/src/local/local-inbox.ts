import { timingSafeEqual } from 'node:crypto';
import { appendFile, mkdir, open, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { SMTPServer as SmtpServerType } from 'smtp-server';
import type { InboxMessage, InboxPost } from './inbox-message.js';

export interface LocalInboxOptions {
  /** Where messages are kept (`messages.jsonl`, appended and fsync'd): they survive a restart. @default - memory only */
  readonly dataDir?: string;
  /** The address the SMTP server binds. @default '127.0.0.1' */
  readonly host?: string;
  /** @default - a free port */
  readonly smtpPort?: number;
  /** The per-run secret posts must carry (`INBOX_TOKEN_HEADER`). */
  readonly token: string;
  /** Largest email accepted. @default 10 MiB (SES's own limit is 40 MB; a local inbox needs far less) */
  readonly maxEmailBytes?: number;
}

const MAX_MESSAGES = 1000;
const KEY_IN_MESSAGE_ID = /^<?([^@>]+)@/;

/** A refused post: the status and the reason, for the dev server's answer. */
export class InboxPostError extends Error {
  constructor(public readonly status: number, message: string) {
    super(message);
  }
}

/**
 * The local inbox of `fw dev`: a real SMTP server in process (smtp-server; mail parsed by mailparser) and a store for
 * SMS, WhatsApp and push messages posted by functions. Every channel lands here, so the dev console shows what the
 * app sent. A second delivery with an idempotency key already received is dropped, as a provider honouring the key
 * would: the dispatcher's retry after a crash shows up once.
 */
export class LocalInbox {
  private readonly messages: InboxMessage[] = [];
  private readonly keys = new Set<string>();
  private counter = 0;
  private listeners = new Set<(message: InboxMessage) => void>();

  private constructor(
    private readonly options: LocalInboxOptions,
    private readonly server: SmtpServerType,
    public readonly smtpPort: number,
    private readonly file: string | undefined,
  ) {}

  static async start(options: LocalInboxOptions): Promise<LocalInbox> {
    const { SMTPServer } = await import('smtp-server');
    // mailparser (and its MIME and HTML stack) loads with the first mail, not while fw dev starts.
    let parser: Promise<typeof import('mailparser')> | undefined;
    const simpleParser = async (stream: NodeJS.ReadableStream) => (await (parser ??= import('mailparser'))).simpleParser(stream as never);
    const file = options.dataDir ? path.join(options.dataDir, 'messages.jsonl') : undefined;
    let inbox!: LocalInbox;
    const maxBytes = options.maxEmailBytes ?? 10 * 1024 * 1024;
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      size: maxBytes,
      banner: 'fw dev local inbox',
      logger: false,
      onData(stream, session, callback) {
        simpleParser(stream)
          .then(async (mail) => {
            if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) return callback(Object.assign(new Error('message exceeds the local inbox size limit'), { responseCode: 552 }));
            const headers: Record<string, string> = Object.create(null);
            for (const line of mail.headerLines) headers[line.key] = line.line.slice(line.line.indexOf(':') + 1).trim();
            const messageId = mail.messageId;
            const recipients = session.envelope.rcptTo.map((r) => r.address);
            for (const to of recipients) {
              await inbox.add({
                channel: 'email',
                to,
                ...(messageId ? { idempotencyKey: `${KEY_IN_MESSAGE_ID.exec(messageId)?.[1] ?? messageId}|${to}` } : {}),
                email: {
                  from: mail.from?.text ?? (session.envelope.mailFrom ? session.envelope.mailFrom.address : ''),
                  subject: mail.subject ?? '',
                  ...(typeof mail.html === 'string' ? { html: mail.html } : {}),
                  ...(mail.text !== undefined ? { text: mail.text } : {}),
                  ...(messageId ? { messageId } : {}),
                  headers,
                },
              });
            }
            callback();
          })
          .catch((error: Error) => callback(error));
      },
    });
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.smtpPort ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    // smtp-server keeps a socket error from killing the process only with a listener.
    server.on('error', () => undefined);
    const port = ((server as unknown as { server: { address(): AddressInfo } }).server.address()).port;
    inbox = new LocalInbox(options, server, port, file);
    if (options.dataDir) {
      await mkdir(options.dataDir, { recursive: true });
      await inbox.load();
    }
    return inbox;
  }

  /** Every message, newest first. */
  list(): readonly InboxMessage[] {
    return [...this.messages].reverse();
  }

  /** Calls `listener` for each new message (the dev console's live stream). Returns the unsubscribe. */
  onMessage(listener: (message: InboxMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether `token` is this run's secret (constant time). */
  acceptsToken(token: unknown): boolean {
    if (typeof token !== 'string') return false;
    const a = Buffer.from(token);
    const b = Buffer.from(this.options.token);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  /**
   * Stores an email `fw dev` sends itself, where the cloud service would send it (the identity provider's invitation
   * with a temporary password): as its SMTP server stores one, without a round trip through it.
   */
  async receiveEmail(email: { readonly to: string; readonly from: string; readonly subject: string; readonly text: string }): Promise<InboxMessage> {
    const headers: Record<string, string> = Object.create(null);
    return (await this.add({ channel: 'email', to: email.to, email: { from: email.from, subject: email.subject, text: email.text, headers } }))!;
  }

  /** Stores a posted SMS/WhatsApp/push message after checking its shape; `InboxPostError` (400) names what is wrong. */
  async post(body: unknown): Promise<{ message: InboxMessage; duplicate: boolean }> {
    const post = checkPost(body);
    const existing = this.messages.find((m) => m.idempotencyKey === post.idempotencyKey);
    if (existing) return { message: existing, duplicate: true };
    const message = await this.add({ channel: post.channel, to: post.to, idempotencyKey: post.idempotencyKey, ...(post.category ? { category: post.category } : {}), ...(post.sms ? { sms: post.sms } : {}), ...(post.whatsapp ? { whatsapp: post.whatsapp } : {}), ...(post.push ? { push: post.push } : {}), ...(post.whatsappKind ? { whatsappKind: post.whatsappKind } : {}) });
    return { message: message!, duplicate: false };
  }

  /** Forgets every message (the console's Clear). */
  async clear(): Promise<void> {
    this.messages.length = 0;
    this.keys.clear();
    if (this.file) await appendFile(this.file, `${JSON.stringify({ clear: true })}\n`);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async add(fields: Omit<InboxMessage, 'id' | 'receivedAt'>): Promise<InboxMessage | undefined> {
    if (fields.idempotencyKey !== undefined && this.keys.has(fields.idempotencyKey)) return undefined;
    const message: InboxMessage = { id: `m-${++this.counter}`, receivedAt: new Date().toISOString(), ...fields };
    if (this.file) {
      // Acknowledged (SMTP 250, HTTP 201) only once on disk: nothing the inbox accepted is lost by a kill -9.
      const handle = await open(this.file, 'a');
      try {
        await handle.appendFile(`${JSON.stringify(message)}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
    this.remember(message);
    for (const listener of this.listeners) listener(message);
    return message;
  }

  private remember(message: InboxMessage): void {
    this.messages.push(message);
    if (message.idempotencyKey !== undefined) this.keys.add(message.idempotencyKey);
    if (this.messages.length > MAX_MESSAGES) this.messages.shift();
  }

  private async load(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.file!, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      let entry: InboxMessage | { clear: true };
      try {
        entry = JSON.parse(line) as InboxMessage | { clear: true };
      } catch {
        continue; // a line cut by a crash mid-write was never acknowledged
      }
      if ('clear' in entry) {
        this.messages.length = 0;
        this.keys.clear();
        continue;
      }
      this.remember(entry);
      this.counter = Math.max(this.counter, Number(entry.id.slice(2)) || 0);
    }
  }
}

const POST_CHANNELS = new Set(['sms', 'whatsapp', 'push']);

function isText(value: unknown, max = 10_000): value is string {
  return typeof value === 'string' && value.length <= max;
}

/** Checks a posted message field by field (the body comes from a function, but a bug there must not corrupt the inbox). */
function checkPost(body: unknown): InboxPost {
  const fail = (problem: string): never => {
    throw new InboxPostError(400, `invalid inbox message: ${problem}`);
  };
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return fail('expected a JSON object');
  const b = body as Record<string, unknown>;
  if (!POST_CHANNELS.has(b.channel as string)) fail('channel must be sms, whatsapp or push (email goes through the SMTP server)');
  if (!isText(b.to, 500) || !b.to) fail('to must be a non-empty string');
  if (!isText(b.idempotencyKey, 300) || !b.idempotencyKey) fail('idempotencyKey must be a non-empty string');
  if (b.category !== undefined && !isText(b.category, 100)) fail('category must be a string');
  const channel = b.channel as InboxPost['channel'];
  const content = b[channel] as Record<string, unknown> | undefined;
  if (typeof content !== 'object' || content === null) fail(`${channel} content is missing`);
  if (channel === 'sms' && !isText(content!.body)) fail('sms.body must be a string');
  if (channel === 'push' && (!isText(content!.title) || !isText(content!.body))) fail('push.title and push.body must be strings');
  if (channel === 'whatsapp' && content!.body === undefined && content!.template === undefined) fail('whatsapp needs a body or a template');
  if (b.whatsappKind !== undefined && (channel !== 'whatsapp' || (b.whatsappKind !== 'session' && b.whatsappKind !== 'template'))) fail('whatsappKind must be session or template, on a whatsapp message');
  return JSON.parse(JSON.stringify({ channel, to: b.to, idempotencyKey: b.idempotencyKey, category: b.category, [channel]: content, whatsappKind: b.whatsappKind })) as InboxPost;
}
