import '@framework/data';
import { currentTenant, handler, type AppScope, type AuthenticatedContext, type Middleware, type HandlerContext, type Service } from '@framework/runtime';
import { TenancyHttpError } from '@framework-pro/tenancy';
import type { Chat, ChatSession } from '../chat.js';
import type { HistoryPage, SendResult } from '../messages/messages.js';
import type { ChatMember, ChatRole, ChatRoom, ChatRoomSummary } from '../model/types.js';
import type { ReadState } from '../read-state/read-state.js';
import { roomFanOut } from '../realtime/room-fan-out.js';

export interface ChatRoutesOptions {
  /** Scopes every chat route requires (the room roles decide the rest). */
  readonly scopes: readonly [AppScope, ...AppScope[]];
  /**
   * The app's middleware, the tenancy middleware first (chat rooms are tenant rows: row-level security needs the
   * request's tenant).
   * @default []
   */
  readonly middleware?: readonly Middleware<HandlerContext>[];
}

/** `POST .../messages`: what `ChatSession.send` takes. */
export interface SendMessageBody {
  readonly clientMessageId: string;
  readonly text: string;
  readonly attachments?: readonly string[];
  readonly parentId?: string;
}

export interface AddMemberBody {
  readonly userId: string;
  /** @default 'member' */
  readonly role?: ChatRole;
}

export interface MarkReadBody {
  readonly seq: number;
}

export interface CreateRoomBody {
  readonly name?: string;
  readonly members?: readonly string[];
}

/** A query parameter as a number when it is digits (else as given: the session answers 400 naming it). */
function numberParam(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  return /^\d{1,10}$/.test(value) ? Number(value) : (value as unknown as number);
}

/**
 * The HTTP API of `chat`, as handlers: each checks the caller (scopes), runs the app's middleware (tenancy), then the
 * session's own checks (membership, role, limits). Changes reach the room's WebSocket connections as they do when made
 * over the socket.
 */
export function chatRoutes(chat: Chat, options: ChatRoutesOptions) {
  const routeOptions = { scopes: options.scopes, middleware: options.middleware ?? [] };
  const session = (ctx: AuthenticatedContext, service: Service): ChatSession => {
    const tenant = currentTenant();
    if (!tenant) throw new TenancyHttpError('TENANT_REQUIRED', 'Chat rooms belong to a tenant and this request has none: add the tenancy middleware to the chat routes (options.middleware).');
    return chat.as(ctx.auth.subject, service.db, { fanOut: roomFanOut(service, tenant.id).event });
  };
  const roomId = (ctx: AuthenticatedContext) => ctx.pathParams['roomId'] ?? '';
  return {
    /** `GET <prefix>/rooms`: the caller's rooms with exact unread counts. */
    listRooms: handler<unknown, ChatRoomSummary[]>((_body, ctx, service) => session(ctx, service).rooms(), routeOptions),
    /** `POST <prefix>/rooms` `{ name?, members? }`: a group room, the caller its owner. */
    createRoom: handler<CreateRoomBody, ChatRoom>((body, ctx, service) => session(ctx, service).createRoom({ ...(body?.name !== undefined ? { name: body.name } : {}), ...(body?.members ? { members: body.members } : {}) }), routeOptions),
    /** `GET <prefix>/rooms/{roomId}`. */
    getRoom: handler<unknown, ChatRoom>((_body, ctx, service) => session(ctx, service).room(roomId(ctx)), routeOptions),
    /** `GET <prefix>/rooms/{roomId}/messages?after=&before=&limit=` (`seq` order) or `?since=` (changed after a revision, `rev` order). */
    listMessages: handler<unknown, HistoryPage>((_body, ctx, service) => {
      const after = numberParam(ctx.query['after']);
      const since = numberParam(ctx.query['since']);
      const before = numberParam(ctx.query['before']);
      const limit = numberParam(ctx.query['limit']);
      return session(ctx, service).history(roomId(ctx), { ...(after !== undefined ? { after } : {}), ...(since !== undefined ? { since } : {}), ...(before !== undefined ? { before } : {}), ...(limit !== undefined ? { limit } : {}) });
    }, routeOptions),
    /** `POST <prefix>/rooms/{roomId}/messages`: pushed to the room's connections too. */
    sendMessage: handler<SendMessageBody, SendResult>((body, ctx, service) => session(ctx, service).send(roomId(ctx), body), routeOptions),
    /** `GET <prefix>/rooms/{roomId}/members`: members with role and read watermark (read receipts). */
    listMembers: handler<unknown, ChatMember[]>((_body, ctx, service) => session(ctx, service).roomMembers(roomId(ctx)), routeOptions),
    /** `POST <prefix>/rooms/{roomId}/members` `{ userId, role? }`. */
    addMember: handler<AddMemberBody, ChatMember>((body, ctx, service) => session(ctx, service).addMember(roomId(ctx), body?.userId, body?.role ?? 'member'), routeOptions),
    /**
     * `DELETE <prefix>/rooms/{roomId}/members/{userId}`: removes a member (moderators remove members, owners anyone;
     * anyone removes themselves: leaving). Their open connections stop receiving the room before this answers.
     * Removing someone who is not a member is not an error: `{ removed: false }`.
     */
    removeMember: handler<unknown, { removed: boolean }>(async (_body, ctx, service) => ({ removed: await session(ctx, service).removeMember(roomId(ctx), ctx.pathParams['userId'] ?? '') }), routeOptions),
    /** `POST <prefix>/rooms/{roomId}/read` `{ seq }`: moves the watermark; members get the receipt. */
    markRead: handler<MarkReadBody, ReadState>((body, ctx, service) => session(ctx, service).markRead(roomId(ctx), body?.seq), routeOptions),
  };
}

/** The chat's HTTP handlers; the app re-exports each from a route file (see README, "HTTP API"). */
export type ChatRoutes = ReturnType<typeof chatRoutes>;
