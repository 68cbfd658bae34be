import type { AppDefinition } from '@framework/core';
import { DEV_PATHS, ENV } from '@framework/core/names';
import type { LocalInbox } from '@framework/notify/local';
import type { FastifyPluginAsync } from 'fastify';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { sendError } from '../server/send-response.js';
import type { DevContext, DevEngine, EngineFactory, EngineStart } from './engine.js';

/** Whether the app sends notifications: it depends on `@framework/notify` or has `src/notifications/`. */
export function usesNotifications(app: AppDefinition): boolean {
  if (existsSync(path.join(app.rootDir, 'src', 'notifications'))) return true;
  try {
    const manifest = JSON.parse(readFileSync(path.join(app.rootDir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    return Boolean(manifest.dependencies?.['@framework/notify']);
  } catch {
    return false;
  }
}

/**
 * The local inbox of `@framework/notify`: a real SMTP server (on the dev server's host, a free port) that the app's
 * SMTP provider delivers email to, and `POST /_dev/inbox/messages` for SMS, WhatsApp and push (with this run's
 * `FW_DEV_INBOX_TOKEN`, which only the app's functions have). `GET /_dev/inbox` lists everything, newest first; the
 * dev console's Inbox tab shows it. Messages are kept under `.fw/inbox/` across restarts.
 */
export class EmbeddedInboxEngine implements DevEngine {
  readonly intent = 'notifications' as const;
  readonly kind = 'embedded' as const;
  private inbox?: LocalInbox;

  async start(_app: AppDefinition, context: DevContext): Promise<EngineStart<'notifications'>> {
    // Loaded here: an app without notifications does not load smtp-server and mailparser.
    const { LocalInbox, InboxPostError, INBOX_TOKEN_HEADER } = await import('@framework/notify/local');
    const token = randomBytes(32).toString('base64url');
    const inbox = await LocalInbox.start({ dataDir: path.join(context.dataDir, 'inbox'), host: context.host === '0.0.0.0' ? '127.0.0.1' : context.host, token });
    this.inbox = inbox;
    const plugin: FastifyPluginAsync = async (server) => {
      server.get(DEV_PATHS.inbox, async () => ({ smtpPort: inbox.smtpPort, messages: inbox.list() }));
      server.delete(DEV_PATHS.inbox, async (_request, reply) => {
        await inbox.clear();
        return reply.code(204).send();
      });
      server.post(`${DEV_PATHS.inbox}/messages`, async (request, reply) => {
        if (!inbox.acceptsToken(request.headers[INBOX_TOKEN_HEADER])) {
          return sendError(reply, 401, 'INBOX_TOKEN_REQUIRED', `posts to the local inbox carry this run's ${ENV.devInboxToken} in ${INBOX_TOKEN_HEADER}; only the app's functions have it (send notifications with notify.send, not by hand)`);
        }
        let body: unknown;
        try {
          body = JSON.parse((request.body as Buffer | undefined)?.toString('utf8') || '');
        } catch {
          return sendError(reply, 400, 'INVALID_JSON', 'the request body is not JSON; send { channel, to, idempotencyKey, <channel>: { ... } }');
        }
        try {
          const { message, duplicate } = await inbox.post(body);
          return reply.code(duplicate ? 200 : 201).send({ id: message.id, duplicate });
        } catch (error) {
          if (error instanceof InboxPostError) return sendError(reply, 400, 'INVALID_INBOX_MESSAGE', error.message);
          throw error;
        }
      });
    };
    return {
      outputs: {},
      plugin,
      summary: [`local inbox: SMTP ${context.host === '0.0.0.0' ? '127.0.0.1' : context.host}:${inbox.smtpPort}, ${DEV_PATHS.inbox}`],
      env: { [ENV.devInboxToken]: token, [ENV.devSmtpPort]: String(inbox.smtpPort) },
    };
  }

  /** The running inbox (tests read it). */
  get localInbox(): LocalInbox | undefined {
    return this.inbox;
  }

  async stop(): Promise<void> {
    await this.inbox?.stop();
  }
}

export const embeddedInbox: EngineFactory = {
  intent: 'notifications',
  kind: 'embedded',
  label: 'local inbox (SMTP + messages)',
  isAvailable: async () => true,
  isNeeded: usesNotifications,
  create: () => new EmbeddedInboxEngine(),
};
