import '@framework/data';
import { HttpError, wsHandler, type AppScope, type Service, type WsContext, type WsHandler } from '@framework/runtime';
import { resolveTenant, TenancyHttpError, tenantDatabase, type TenantRequest, type TenantResolutionOptions } from '@framework-pro/tenancy';
import type { Chat, ChatSession } from '../chat.js';
import { ChatHttpError } from '../errors.js';
import { CHAT_OPS, type ChatOp, type ChatPushFrame } from './frames.js';
import { roomFanOut } from './room-fan-out.js';
import { roomTopic } from './room-topic.js';

export interface ChatSocketOptions {
  /**
   * Scopes a connection's token must carry to use chat (checked on every frame, as `wsHandler` does).
   * @default - none beyond a signed-in caller
   */
  readonly scopes?: readonly [AppScope, ...AppScope[]];
  /**
   * Where the connection's tenant comes from: the token claim (a WebSocket frame has no headers or path to choose one).
   * @default { claim: 'custom:tenant_id' }
   */
  readonly tenancy?: Pick<TenantResolutionOptions, 'claim' | 'idPattern'>;
}

type Frame = Readonly<Record<string, unknown>>;

/** What one operation answers (the `ack` frame's fields besides `type`, `op` and `ref`). */
type Result = Readonly<Record<string, unknown>>;

interface Call {
  readonly me: ChatSession;
  readonly frame: Frame;
  readonly connectionId: string;
  readonly service: Service;
  readonly topic: (roomId: string) => string;
  readonly push: (roomId: string, frame: ChatPushFrame) => Promise<void>;
  readonly typingTtlMs: number;
}

async function perform(op: ChatOp, call: Call): Promise<Result> {
  const { me, frame } = call;
  const roomId = frame['roomId'] as string;
  switch (op) {
    case 'join': {
      const room = await me.room(roomId);
      // Subscribed before history is read: a message committed meanwhile is in the history or pushed (or both; the
      // client drops a seq it has), never in neither.
      await call.service.ws.subscribe(call.connectionId, call.topic(room.id));
      try {
        // Each call below checks membership again: a removal that committed between the check above and the
        // subscription (its unsubscribe found nothing yet) is caught here, and the subscription undone.
        if (await me.heartbeat(room.id, 'online')) await call.push(room.id, { type: 'presence', roomId: room.id, userId: me.userId, status: 'online' });
        // `since` (a revision: new messages and changes to older ones) or `after` (a seq: new messages only).
        const cursor = frame['since'] !== undefined ? { since: frame['since'] as number } : frame['after'] !== undefined ? { after: frame['after'] as number } : undefined;
        const page = cursor ? await me.history(room.id, { ...cursor, limit: (frame['limit'] as number | undefined) ?? 200 }) : undefined;
        return { room, readState: await me.readState(room.id), presence: await me.presence(room.id), ...(page ? { messages: page.messages, hasMore: page.hasMore } : {}) };
      } catch (error) {
        await call.service.ws.unsubscribe(call.connectionId, call.topic(room.id));
        throw error;
      }
    }
    case 'leave': {
      await me.goOffline(roomId);
      await call.service.ws.unsubscribe(call.connectionId, call.topic(roomId));
      await call.push(roomId, { type: 'presence', roomId, userId: me.userId, status: 'offline' });
      return { roomId };
    }
    case 'send': {
      const { message, duplicate } = await me.send(roomId, {
        clientMessageId: frame['clientMessageId'] as string,
        text: frame['text'] as string,
        ...(frame['attachments'] !== undefined ? { attachments: frame['attachments'] as string[] } : {}),
        ...(frame['parentId'] !== undefined ? { parentId: frame['parentId'] as string } : {}),
      });
      return { message, duplicate };
    }
    case 'edit':
      return { message: await me.edit(frame['messageId'] as string, frame['text'] as string) };
    case 'delete':
      return { message: await me.delete(frame['messageId'] as string) };
    case 'react':
      return { message: await me.react(frame['messageId'] as string, frame['emoji'] as string, frame['add'] !== false) };
    case 'typing': {
      const passedOn = await me.typing(roomId);
      if (passedOn) await call.push(roomId, { type: 'typing', roomId, userId: me.userId, expiresInMs: call.typingTtlMs });
      return { roomId, passedOn };
    }
    case 'heartbeat': {
      const status = (frame['status'] as 'online' | 'away' | undefined) ?? 'online';
      if (await me.heartbeat(roomId, status)) await call.push(roomId, { type: 'presence', roomId, userId: me.userId, status });
      return { roomId };
    }
    case 'read':
      return { ...(await me.markRead(roomId, frame['seq'] as number)) };
    case 'history': {
      const page = await me.history(roomId, {
        ...(frame['after'] !== undefined ? { after: frame['after'] as number } : {}),
        ...(frame['since'] !== undefined ? { since: frame['since'] as number } : {}),
        ...(frame['before'] !== undefined ? { before: frame['before'] as number } : {}),
        ...(frame['limit'] !== undefined ? { limit: frame['limit'] as number } : {}),
      });
      return { roomId, messages: page.messages, hasMore: page.hasMore };
    }
    case 'presence':
      return { roomId, presence: await me.presence(roomId) };
  }
}

/**
 * The chat's WebSocket route: `src/ws/chat.ts` holds `export const main = chatSocket(chat);` and clients send
 * `{ "action": "chat", "op": "send", "ref": "1", "roomId": ..., "clientMessageId": ..., "text": ... }`. Each frame is
 * checked (caller, tenant from the token, membership and role in the room), performed, answered to the connection
 * (`ack` or `error`, with the frame's `ref`), and what changed is pushed to the room's connections. See README,
 * "Protocol".
 */
export function chatSocket(chat: Chat, options: ChatSocketOptions = {}): WsHandler {
  const tenancy = { claim: options.tenancy?.claim, idPattern: options.tenancy?.idPattern };
  const fn = async (message: unknown, ctx: WsContext, service: Service) => {
    const frame: Frame = typeof message === 'object' && message !== null && !Array.isArray(message) && !Buffer.isBuffer(message) ? (message as Frame) : {};
    const op = typeof frame['op'] === 'string' ? frame['op'] : undefined;
    const ref = typeof frame['ref'] === 'string' || typeof frame['ref'] === 'number' ? String(frame['ref']).slice(0, 64) : undefined;
    const answer = (data: Record<string, unknown>) => service.ws.send(ctx.connectionId, { ...data, ...(op !== undefined ? { op } : {}), ...(ref !== undefined ? { ref } : {}) });
    try {
      if (!ctx.auth) throw new ChatHttpError('CHAT_UNAUTHENTICATED', 'Chat needs a signed-in caller: connect with a token (the Authorization header or ?token=).');
      if (op === undefined || !(CHAT_OPS as readonly string[]).includes(op)) throw new ChatHttpError('CHAT_INVALID_INPUT', `op must be one of ${CHAT_OPS.join(', ')}; got ${op === undefined ? 'nothing' : JSON.stringify(op.slice(0, 40))}`);
      const auth = ctx.auth;
      const request: TenantRequest = { auth, headers: {}, pathParams: {}, rawEvent: ctx.rawEvent as unknown as TenantRequest['rawEvent'] };
      const tenant = resolveTenant(request, { from: ['claim'], ...(tenancy.claim ? { claim: tenancy.claim } : {}), ...(tenancy.idPattern ? { idPattern: tenancy.idPattern } : {}) });
      if (!tenant) throw new TenancyHttpError('TENANT_REQUIRED', "Chat rooms belong to a tenant, and the connection's token names none: sign in as a user of a tenant.");
      // The tenant goes with the session's database rather than into `runWithTenant`: on Node 20 entering an
      // AsyncLocalStorage turns promise hooks on for the whole thread from then on, and this thread's every frame
      // (a send's fan-out: a hundred connections, a promise or more each) would pay for them. Row-level security is
      // the same (`tenantDatabase` gives each statement the settings `runWithTenant` would); the app's own hooks,
      // which may read `currentTenant()`, still run inside `runWithTenant` (`tenant` below).
      const scope = { id: tenant.id };
      const topic = (roomId: string) => roomTopic(tenant.id, roomId);
      const fanOut = roomFanOut(service, tenant.id);
      const me = chat.as(auth.subject, tenantDatabase(service.db, scope), { fanOut: fanOut.event, tenant: scope });
      const result = await perform(op as ChatOp, { me, frame, connectionId: ctx.connectionId, service, topic, push: fanOut.push, typingTtlMs: chat.presence.typingTtlMs });
      await answer({ type: 'ack', ...result });
    } catch (error) {
      if (error instanceof HttpError) {
        await answer({ type: 'error', code: error.code, message: error.message });
        return;
      }
      ctx.logger.error('chat operation failed', { error, op });
      await answer({ type: 'error', code: 'INTERNAL_ERROR', message: 'Internal server error' });
    }
  };
  return options.scopes ? wsHandler(fn, { scopes: options.scopes }) : wsHandler(fn);
}
