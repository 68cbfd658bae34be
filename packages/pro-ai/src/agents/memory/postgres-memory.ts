import { sql, type Queryable } from '@framework/data';
import type { ModelMessage } from 'ai';
import type { ConversationMemory, ConversationOwner } from './conversation-memory.js';

/**
 * Conversations in the app's PostgreSQL (`fw_ai_conversation_messages`, from `aiStateMigrationSql()`): one row per
 * message, keyed by tenant, user and conversation; every query names all three, so one user never reads another's.
 */
export function postgresMemory(db: Queryable): ConversationMemory {
  return {
    async load(owner, conversation, limit) {
      const rows = await db.many<{ message: ModelMessage }>(sql`
        SELECT message FROM (
          SELECT id, message FROM fw_ai_conversation_messages
          WHERE tenant = ${tenantOf(owner)} AND user_id = ${owner.userId} AND conversation = ${conversation}
          ORDER BY id DESC LIMIT ${limit}
        ) last ORDER BY id`);
      return rows.map((row) => row.message);
    },
    async append(owner, conversation, messages) {
      if (messages.length === 0) return;
      // One statement: the messages of a turn are stored together or not at all, in order (ids follow unnest's order).
      await db.query(sql`
        INSERT INTO fw_ai_conversation_messages (tenant, user_id, conversation, message)
        SELECT ${tenantOf(owner)}, ${owner.userId}, ${conversation}, m
        FROM unnest(${messages.map((m) => JSON.stringify(m))}::jsonb[]) WITH ORDINALITY AS t(m, n) ORDER BY n`);
    },
    async clear(owner, conversation) {
      await db.query(sql`DELETE FROM fw_ai_conversation_messages WHERE tenant = ${tenantOf(owner)} AND user_id = ${owner.userId} AND conversation = ${conversation}`);
    },
  };
}

// '' stands for "no tenant" so the key columns stay NOT NULL and the index covers every row.
function tenantOf(owner: ConversationOwner): string {
  return owner.tenantId ?? '';
}
