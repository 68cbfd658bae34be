import type { Queryable } from '@framework/data';
import { runWithTenant, type TenantInfo } from '@framework/runtime';
import { ChatConfigError } from './errors.js';
import type { ChatEvent } from './events/chat-event.js';
import { checkPreSendBudget, type PreSendHook } from './hooks/pre-send.js';
import { resolveChatLimits, type ChatLimits, type ResolvedChatLimits } from './limits/chat-limits.js';
import * as input from './model/input.js';
import type { ChatMember, ChatMessage, ChatRole, ChatRoom, ChatRoomSummary } from './model/types.js';
import { deleteMessage, editMessage, history, MAX_HISTORY_PAGE, reactToMessage, sendMessage, type HistoryOptions, type HistoryPage, type SendInput, type SendResult } from './messages/messages.js';
import { markRead, readState, type ReadState } from './read-state/read-state.js';
import { addMember, createRoom, directRoom, getRoom, listMembers, listRooms, removeMember, resourceRoom, setRole, type CreateRoomInput } from './rooms/rooms.js';
import { goOffline, heartbeat, resolvePresenceOptions, roomPresence, typing, type PresenceOptions, type PresenceStatus, type ResolvedPresenceOptions, type RoomPresence } from './presence/presence.js';
import type { SessionScope } from './session/session-scope.js';

export interface ChatOptions {
  /** @default - see `ChatLimits` */
  readonly limits?: ChatLimits;
  /**
   * Moderation or redaction before a message (or an edit) is written, in process: return `{ reject }` to refuse,
   * `{ text }` to replace the text.
   * @default - none
   */
  readonly preSend?: PreSendHook;
  /**
   * How long the pre-send hook may take; past it the message is refused (`CHAT_PRE_SEND_TIMEOUT`).
   * @default 500
   */
  readonly preSendBudgetMs?: number;
  /**
   * Called after each change committed (a message sent, edited, deleted, a reaction, a read receipt, a member): hand
   * it to a queue (`(event) => service.queues['chat-events'].send(event)`). A failure fails the call, and the
   * client's retry emits again: at least once.
   * @default - none
   */
  readonly onEvent?: (event: ChatEvent) => unknown;
  /** @default - see `PresenceOptions` */
  readonly presence?: PresenceOptions;
}

export interface SessionOptions {
  /**
   * Where the session's events also go, after `onEvent`: the WebSocket handlers and HTTP routes of this package pass
   * the room fan-out here, so a change made through either reaches the room's connections.
   * @default - none
   */
  readonly fanOut?: (event: ChatEvent) => unknown;
  /**
   * The tenant the app's `preSend` and `onEvent` run as (`runWithTenant`: `currentTenant()` and `service.db` inside
   * them act for it), for a session whose `db` carries its tenant explicitly (`tenantDatabase(db, tenant)`) outside
   * any tenant scope: the package's WebSocket handler. Inside a tenant scope (an HTTP route) it is not needed.
   * @default - the hooks run in the caller's scope
   */
  readonly tenant?: TenantInfo;
}

/**
 * One caller's chat: every operation checks the caller's membership and role in the room, and runs on `db`, whose
 * row-level security shows only the tenant's rooms. Arguments are checked (they usually come from a client): a bad
 * one is a 400 `CHAT_INVALID_INPUT` naming the field.
 */
export class ChatSession {
  constructor(private readonly scope: SessionScope) {}

  get userId(): string {
    return this.scope.userId;
  }

  async createRoom(options: CreateRoomInput = {}): Promise<ChatRoom> {
    return createRoom(this.scope, { ...options, ...(options.members ? { members: this.members(options.members) } : {}) });
  }

  /** The room of a resource (`task:<id>`), created on first use; `join: true` makes the caller a member. The app checks access to the resource first. */
  async resourceRoom(resource: string, options: CreateRoomInput & { readonly join?: boolean } = {}): Promise<ChatRoom> {
    return resourceRoom(this.scope, input.resourceInput(resource), { ...options, ...(options.members ? { members: this.members(options.members) } : {}) });
  }

  async directRoom(otherUserId: string): Promise<ChatRoom> {
    return directRoom(this.scope, input.userIdInput(otherUserId));
  }

  async rooms(): Promise<ChatRoomSummary[]> {
    return listRooms(this.scope);
  }

  async room(roomId: string): Promise<ChatRoom> {
    return getRoom(this.scope, input.roomIdInput(roomId));
  }

  async roomMembers(roomId: string): Promise<ChatMember[]> {
    return listMembers(this.scope, input.roomIdInput(roomId));
  }

  async addMember(roomId: string, userId: string, role: ChatRole = 'member'): Promise<ChatMember> {
    return addMember(this.scope, input.roomIdInput(roomId), input.userIdInput(userId), input.roleInput(role));
  }

  async removeMember(roomId: string, userId: string): Promise<boolean> {
    return removeMember(this.scope, input.roomIdInput(roomId), input.userIdInput(userId));
  }

  async setRole(roomId: string, userId: string, role: ChatRole): Promise<ChatMember> {
    return setRole(this.scope, input.roomIdInput(roomId), input.userIdInput(userId), input.roleInput(role));
  }

  async send(roomId: string, message: SendInput): Promise<SendResult> {
    const checked = message as Partial<SendInput> | undefined;
    return sendMessage(this.scope, input.roomIdInput(roomId), {
      clientMessageId: input.clientMessageIdInput(checked?.clientMessageId),
      text: input.textInput(checked?.text ?? (checked?.attachments ? '' : undefined)),
      attachments: input.attachmentsInput(checked?.attachments),
      ...(checked?.parentId !== undefined && checked.parentId !== null ? { parentId: input.messageIdInput(checked.parentId, 'parentId') } : {}),
    });
  }

  async edit(messageId: string, text: string): Promise<ChatMessage> {
    return editMessage(this.scope, input.messageIdInput(messageId), input.textInput(text));
  }

  async delete(messageId: string): Promise<ChatMessage> {
    return deleteMessage(this.scope, input.messageIdInput(messageId));
  }

  async react(messageId: string, emoji: string, add = true): Promise<ChatMessage> {
    return reactToMessage(this.scope, input.messageIdInput(messageId), input.emojiInput(emoji), add !== false);
  }

  async history(roomId: string, options: HistoryOptions = {}): Promise<HistoryPage> {
    return history(this.scope, input.roomIdInput(roomId), {
      ...(options.after !== undefined ? { after: input.seqInput(options.after, 'after') } : {}),
      ...(options.since !== undefined ? { since: input.seqInput(options.since, 'since') } : {}),
      ...(options.before !== undefined ? { before: input.seqInput(options.before, 'before') } : {}),
      limit: input.limitInput(options.limit, MAX_HISTORY_PAGE),
    });
  }

  async markRead(roomId: string, seq: number): Promise<ReadState> {
    return markRead(this.scope, input.roomIdInput(roomId), input.seqInput(seq, 'seq'));
  }

  async readState(roomId: string): Promise<ReadState> {
    return readState(this.scope, input.roomIdInput(roomId));
  }

  /** A heartbeat in the room (`online` or `away`); true when the member's visible status changed. */
  async heartbeat(roomId: string, status: PresenceStatus = 'online'): Promise<boolean> {
    return heartbeat(this.scope, this.scope.presence, input.roomIdInput(roomId), input.statusInput(status));
  }

  /** The member is typing; false when dropped by the typing rate limit. */
  async typing(roomId: string): Promise<boolean> {
    return typing(this.scope, this.scope.presence, input.roomIdInput(roomId));
  }

  async goOffline(roomId: string): Promise<void> {
    return goOffline(this.scope, input.roomIdInput(roomId));
  }

  /** Who is online or away in the room now, and typing. */
  async presence(roomId: string): Promise<RoomPresence[]> {
    return roomPresence(this.scope, input.roomIdInput(roomId));
  }

  private members(members: NonNullable<CreateRoomInput['members']>): CreateRoomInput['members'] {
    if (!Array.isArray(members)) throw new ChatConfigError('FW_ERR_CHAT_INVALID_OPTIONS', 'members must be an array of user ids or { userId, role }');
    return members.map((m: string | { userId: string; role?: ChatRole }) => (typeof m === 'string' ? input.userIdInput(m) : { userId: input.userIdInput(m.userId), role: input.roleInput(m.role ?? 'member') }));
  }
}

export interface Chat {
  readonly limits: ResolvedChatLimits;
  readonly presence: ResolvedPresenceOptions;
  /** The operations of `userId` (the token subject) on `db` (`service.db`). */
  as(userId: string, db: Queryable, options?: SessionOptions): ChatSession;
}

/** The app's chat, configured once (options checked here) and shared by its routes and WebSocket handlers. */
export function createChat(options: ChatOptions = {}): Chat {
  const limits = resolveChatLimits(options.limits);
  const preSendBudgetMs = checkPreSendBudget(options.preSendBudgetMs ?? 500);
  if (options.preSend !== undefined && typeof options.preSend !== 'function') throw new ChatConfigError('FW_ERR_CHAT_INVALID_OPTIONS', 'preSend must be a function (draft) => verdict');
  const presence = resolvePresenceOptions(options.presence);
  return {
    limits,
    presence,
    as: (userId, db, session = {}) => {
      const { preSend, onEvent } = inTenant(session.tenant, options);
      return new ChatSession({ db, userId: input.userIdInput(userId), limits, preSend, preSendBudgetMs, onEvent, fanOut: session.fanOut, presence });
    },
  };
}

/** The app's hooks, each run inside `tenant`'s scope when one is given (they may read `currentTenant()`). */
function inTenant(tenant: TenantInfo | undefined, options: ChatOptions): Pick<ChatOptions, 'preSend' | 'onEvent'> {
  const { preSend, onEvent } = options;
  if (!tenant) return { preSend, onEvent };
  return {
    preSend: preSend && ((draft) => runWithTenant(tenant, () => preSend(draft))),
    onEvent: onEvent && ((event) => runWithTenant(tenant, () => onEvent(event))),
  };
}
