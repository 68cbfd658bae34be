import type { ModelMessage } from 'ai';

/** Who a conversation belongs to: a user within a tenant (the same user id in two tenants is two people). */
export interface ConversationOwner {
  readonly tenantId?: string;
  readonly userId: string;
}

/**
 * Where an agent keeps conversations: messages per owner and conversation, oldest first. `postgresMemory(db)`
 * deployed; `inMemoryMemory()` for tests.
 */
export interface ConversationMemory {
  /** The last `limit` messages of the conversation, oldest first. */
  load(owner: ConversationOwner, conversation: string, limit: number): Promise<ModelMessage[]>;
  /** Adds messages at the end of the conversation. */
  append(owner: ConversationOwner, conversation: string, messages: readonly ModelMessage[]): Promise<void>;
  /** Forgets the conversation (a user's "clear history"). */
  clear(owner: ConversationOwner, conversation: string): Promise<void>;
}

/** Conversations in this process only (tests, scripts). */
export function inMemoryMemory(): ConversationMemory {
  const conversations = new Map<string, ModelMessage[]>();
  const key = (owner: ConversationOwner, conversation: string) => JSON.stringify([owner.tenantId ?? null, owner.userId, conversation]);
  return {
    async load(owner, conversation, limit) {
      return structuredClone((conversations.get(key(owner, conversation)) ?? []).slice(-limit));
    },
    async append(owner, conversation, messages) {
      const k = key(owner, conversation);
      conversations.set(k, [...(conversations.get(k) ?? []), ...structuredClone(messages as ModelMessage[])]);
    },
    async clear(owner, conversation) {
      conversations.delete(key(owner, conversation));
    },
  };
}
