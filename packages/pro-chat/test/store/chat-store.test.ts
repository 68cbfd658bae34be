import { currentTenant, runWithTenant, tenantDatabase } from '@framework-pro/tenancy';
import { expect } from 'chai';
import { ChatHttpError, createChat, type ChatEvent, type ChatHttpErrorCode } from '../../src/index.js';
import { ENGINES, useChatDatabase } from '../support/chat-database.js';

/** Polls until `check` holds (TTLs pass in the database's clock; a generous bound, no wall-time assertion). */
async function eventuallyTrue(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const acme = <T>(fn: () => Promise<T>) => runWithTenant({ id: 'acme' }, fn);
const globex = <T>(fn: () => Promise<T>) => runWithTenant({ id: 'globex' }, fn);

async function refusal(promise: Promise<unknown>): Promise<ChatHttpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'expected a ChatHttpError').to.be.instanceOf(ChatHttpError);
  return error as ChatHttpError;
}

async function expectRefused(promise: Promise<unknown>, code: ChatHttpErrorCode): Promise<ChatHttpError> {
  const error = await refusal(promise);
  expect(error.code, error.message).to.equal(code);
  return error;
}

for (const engine of ENGINES) {
  describe(`chat store on ${engine.name}`, function () {
    this.timeout(120_000);
    const database = useChatDatabase(engine);
    const events: ChatEvent[] = [];
    const chat = createChat({ onEvent: (event) => void events.push(event), limits: { maxRoomMembers: 600 } });
    const as = (user: string) => chat.as(user, database.db());
    beforeEach(() => {
      events.length = 0;
    });

    it('counts unread exactly for every member of a 500-member room', async () => {
      await acme(async () => {
        const members = Array.from({ length: 499 }, (_, i) => `user-${i + 1}`);
        const room = await as('owner').createRoom({ name: 'all hands', members });
        for (let i = 1; i <= 30; i++) await as('owner').send(room.id, { clientMessageId: `o-${i}`, text: `owner ${i}` });
        for (let i = 1; i <= 5; i++) await as('user-7').send(room.id, { clientMessageId: `u-${i}`, text: `user 7 says ${i}` });
        // seq 1-30 from the owner, 31-35 from user-7; one of the owner's is deleted (it no longer counts as unread).
        const history = await as('owner').history(room.id, { after: 0, limit: 200 });
        await as('owner').delete(history.messages[9]!.id);
        const everyone = ['owner', ...members];
        for (const [i, user] of everyone.entries()) if (i % 5 !== 0) await as(user).markRead(room.id, i % 36);
        const expected = (user: string, watermark: number) => {
          let n = 0;
          for (let seq = watermark + 1; seq <= 35; seq++) if (seq !== 10 && !(seq <= 30 ? user === 'owner' : user === 'user-7')) n++;
          return n;
        };
        for (const [i, user] of everyone.entries()) {
          // Own messages are read (sending moves the sender's watermark), so the owner's and user-7's start further on.
          const own = user === 'owner' ? 30 : user === 'user-7' ? 35 : 0;
          const watermark = Math.max(own, i % 5 !== 0 ? i % 36 : 0);
          const [summary] = await as(user).rooms();
          expect(summary!.unread, `${user}'s unread`).to.equal(expected(user, watermark));
          expect(summary!.lastReadSeq).to.equal(watermark);
        }
      });
    });

    it('refuses a non-member: no history, no send, no read, no members', async () => {
      await acme(async () => {
        const room = await as('alice').createRoom({ members: ['bob'] });
        await as('alice').send(room.id, { clientMessageId: 'c1', text: 'private' });
        const eve = as('eve');
        await expectRefused(eve.history(room.id), 'CHAT_NOT_A_MEMBER');
        await expectRefused(eve.send(room.id, { clientMessageId: 'x', text: 'hi' }), 'CHAT_NOT_A_MEMBER');
        await expectRefused(eve.markRead(room.id, 1), 'CHAT_NOT_A_MEMBER');
        await expectRefused(eve.roomMembers(room.id), 'CHAT_NOT_A_MEMBER');
        const message = (await as('bob').history(room.id)).messages[0]!;
        await expectRefused(eve.react(message.id, '👍'), 'CHAT_NOT_A_MEMBER');
        expect(await eve.rooms()).to.deep.equal([]);
        expect((await as('bob').history(room.id)).messages.map((m) => m.text)).to.deep.equal(['private']);
      });
    });

    it("hides a tenant's rooms and messages from another tenant, even from a user of the same id", async () => {
      const { room, message } = await acme(async () => {
        const room = await as('alice').createRoom({ members: ['bob'] });
        const { message } = await as('alice').send(room.id, { clientMessageId: 'c1', text: 'acme only' });
        return { room, message };
      });
      await globex(async () => {
        const bob = as('bob');
        expect(await bob.rooms()).to.deep.equal([]);
        await expectRefused(bob.history(room.id), 'CHAT_ROOM_NOT_FOUND');
        await expectRefused(bob.send(room.id, { clientMessageId: 'g1', text: 'hello?' }), 'CHAT_ROOM_NOT_FOUND');
        await expectRefused(bob.edit(message.id, 'x'), 'CHAT_MESSAGE_NOT_FOUND');
        await expectRefused(bob.delete(message.id), 'CHAT_MESSAGE_NOT_FOUND');
        await expectRefused(as('alice').addMember(room.id, 'mallory'), 'CHAT_ROOM_NOT_FOUND');
      });
      expect((await acme(() => as('bob').history(room.id))).messages.map((m) => m.text)).to.deep.equal(['acme only']);
    });

    it('sends once per client message id, retries and racing retries included', async () => {
      await acme(async () => {
        const room = await as('alice').createRoom({ members: ['bob'] });
        const first = await as('alice').send(room.id, { clientMessageId: 'same', text: 'hello' });
        const retry = await as('alice').send(room.id, { clientMessageId: 'same', text: 'hello' });
        expect(first.duplicate).to.equal(false);
        expect(retry).to.deep.equal({ message: first.message, duplicate: true });
        const racing = await Promise.all([1, 2, 3].map(() => as('bob').send(room.id, { clientMessageId: 'race', text: 'once' })));
        expect(new Set(racing.map((r) => r.message.id)).size).to.equal(1);
        expect(racing.filter((r) => !r.duplicate)).to.have.length(1);
        // Another sender may use the same client id: ids are the sender's own.
        await as('bob').send(room.id, { clientMessageId: 'same', text: 'mine' });
        const seqs = (await as('alice').history(room.id)).messages.map((m) => m.seq);
        expect(seqs).to.deep.equal([1, 2, 3]);
      });
    });

    it('numbers a room 1, 2, 3... without gaps when members send at once, and resumes after a cursor', async () => {
      await acme(async () => {
        const room = await as('alice').createRoom({ members: ['bob', 'carol'] });
        await Promise.all(
          ['alice', 'bob', 'carol'].map(async (user) => {
            for (let i = 0; i < 8; i++) await as(user).send(room.id, { clientMessageId: `${user}-${i}`, text: `${user} ${i}` });
          }),
        );
        const all = (await as('carol').history(room.id, { after: 0, limit: 200 })).messages;
        expect(all.map((m) => m.seq)).to.deep.equal(Array.from({ length: 24 }, (_, i) => i + 1));
        // Each sender's messages keep their order.
        for (const user of ['alice', 'bob', 'carol']) expect(all.filter((m) => m.sender === user).map((m) => m.text)).to.deep.equal(Array.from({ length: 8 }, (_, i) => `${user} ${i}`));
        const resumed = await as('carol').history(room.id, { after: 10, limit: 5 });
        expect(resumed.messages.map((m) => m.seq)).to.deep.equal([11, 12, 13, 14, 15]);
        expect(resumed.hasMore).to.equal(true);
        const back = await as('carol').history(room.id, { before: 11, limit: 4 });
        expect(back.messages.map((m) => m.seq)).to.deep.equal([7, 8, 9, 10]);
      });
    });

    it('lets the sender edit, a moderator delete, members react, and keeps a deleted message in its place', async () => {
      await acme(async () => {
        const room = await as('olga').createRoom({ members: ['mia', { userId: 'max', role: 'moderator' }] });
        const { message } = await as('mia').send(room.id, { clientMessageId: 'm1', text: 'helo', attachments: ['acme/chat/a.png'] });
        const reply = await as('max').send(room.id, { clientMessageId: 'r1', text: 'typo', parentId: message.id });
        expect(reply.message.parentId).to.equal(message.id);
        await expectRefused(as('max').edit(message.id, 'hello'), 'CHAT_ROLE_REQUIRED');
        expect((await as('mia').edit(message.id, 'hello')).text).to.equal('hello');
        await as('max').react(message.id, '👍');
        const reacted = await as('olga').react(message.id, '👍');
        expect(reacted.reactions).to.deep.equal([{ emoji: '👍', users: ['max', 'olga'] }]);
        expect((await as('olga').react(message.id, '👍', false)).reactions).to.deep.equal([{ emoji: '👍', users: ['max'] }]);
        await expectRefused(as('mia').delete(reply.message.id), 'CHAT_ROLE_REQUIRED');
        const deleted = await as('max').delete(message.id);
        expect(deleted).to.include({ deleted: true, text: '', seq: 1 });
        expect(deleted.attachments).to.deep.equal([]);
        await expectRefused(as('mia').edit(message.id, 'back'), 'CHAT_MESSAGE_NOT_FOUND');
        expect((await as('mia').history(room.id)).messages.map((m) => [m.seq, m.deleted])).to.deep.equal([[1, true], [2, false]]);
        expect(events.map((e) => e.type)).to.deep.equal(['message.sent', 'message.sent', 'message.edited', 'reaction.changed', 'reaction.changed', 'reaction.changed', 'message.deleted']);
      });
    });

    it('resumes after a revision with what changed since: new messages, edits, deletes and reactions, each once in its current state', async () => {
      await acme(async () => {
        const room = await as('alice').createRoom({ members: ['bob'] });
        const one = (await as('alice').send(room.id, { clientMessageId: 'v1', text: 'one' })).message;
        const two = (await as('alice').send(room.id, { clientMessageId: 'v2', text: 'two' })).message;
        const three = (await as('bob').send(room.id, { clientMessageId: 'v3', text: 'three' })).message;
        expect([one.rev, two.rev, three.rev]).to.deep.equal([1, 2, 3]);
        const cursor = three.rev; // what bob's client had when it dropped off
        await as('alice').edit(one.id, 'one (edited)');
        await as('alice').react(one.id, '🎉');
        await as('alice').react(one.id, '🎉'); // again: nothing changed, the message keeps its revision
        await as('bob').delete(three.id);
        const four = (await as('alice').send(room.id, { clientMessageId: 'v4', text: 'four' })).message;
        const resumed = await as('bob').history(room.id, { since: cursor });
        expect(resumed.messages.map((m) => [m.seq, m.text, m.deleted, m.reactions.map((r) => r.emoji)])).to.deep.equal([
          [1, 'one (edited)', false, ['🎉']],
          [3, '', true, []],
          [4, 'four', false, []],
        ]);
        const revs = resumed.messages.map((m) => m.rev);
        expect(revs).to.deep.equal([...revs].sort((a, b) => a - b));
        expect(revs.at(-1)).to.equal(four.rev);
        expect((await as('bob').room(room.id)).lastRev).to.equal(four.rev);
        // Message two did not change: not in the resume. Nothing after the last revision.
        expect((await as('bob').history(room.id, { since: four.rev })).messages).to.deep.equal([]);
        const paged = await as('bob').history(room.id, { since: cursor, limit: 2 });
        expect([paged.messages.map((m) => m.seq), paged.hasMore]).to.deep.equal([[1, 3], true]);
        await expectRefused(as('bob').history(room.id, { since: -1 }), 'CHAT_INVALID_INPUT');
      });
    });

    it('sends in one statement when every check passes, and still answers each refusal with its code', async () => {
      await acme(async () => {
        const room = await as('alice').createRoom({ members: ['bob'] });
        const other = await as('alice').createRoom();
        const elsewhere = (await as('alice').send(other.id, { clientMessageId: 'x', text: 'elsewhere' })).message;
        let statements = 0;
        let prepared = 0;
        const db = database.db();
        const counted = new Set(['query', 'one', 'maybeOne', 'many', 'transaction']);
        const counting = new Proxy(db, {
          get(target, prop) {
            const value = Reflect.get(target, prop, target) as unknown;
            if (typeof value !== 'function') return value;
            return (...args: unknown[]) => {
              if (counted.has(String(prop))) statements++;
              if ((args[1] as { prepare?: boolean } | undefined)?.prepare) prepared++;
              return (value as (...a: unknown[]) => unknown).apply(target, args);
            };
          },
        });
        const alice = chat.as('alice', counting);
        const first = await alice.send(room.id, { clientMessageId: 'one', text: 'one statement' });
        // ... and that statement is prepared (parsed and planned once per connection: most of its cost on PGlite).
        expect([first.duplicate, first.message.seq, statements, prepared]).to.deep.equal([false, 1, 1, 1]);
        statements = 0;
        const reply = await alice.send(room.id, { clientMessageId: 'two', text: 'a reply', parentId: first.message.id });
        expect([reply.message.parentId, statements]).to.deep.equal([first.message.id, 1]);
        // Refusals and retries take the checking path: the right answer, not a silent nothing.
        expect((await alice.send(room.id, { clientMessageId: 'one', text: 'one statement' })).duplicate).to.equal(true);
        await expectRefused(alice.send(room.id, { clientMessageId: 'p', text: 'wrong thread', parentId: elsewhere.id }), 'CHAT_MESSAGE_NOT_FOUND');
        await expectRefused(chat.as('eve', counting).send(room.id, { clientMessageId: 'e', text: 'hi' }), 'CHAT_NOT_A_MEMBER');
        expect((await as('bob').history(room.id)).messages.map((m) => m.seq)).to.deep.equal([1, 2]);
      });
    });

    it('lets moderators manage members and owners manage roles', async () => {
      await acme(async () => {
        const room = await as('olga').createRoom({ members: ['mia', { userId: 'max', role: 'moderator' }] });
        await expectRefused(as('mia').addMember(room.id, 'nina'), 'CHAT_ROLE_REQUIRED');
        await as('max').addMember(room.id, 'nina');
        await expectRefused(as('max').addMember(room.id, 'oscar', 'moderator'), 'CHAT_ROLE_REQUIRED');
        await expectRefused(as('max').removeMember(room.id, 'olga'), 'CHAT_ROLE_REQUIRED');
        expect(await as('max').removeMember(room.id, 'nina')).to.equal(true);
        await as('olga').setRole(room.id, 'mia', 'moderator');
        expect(await as('mia').removeMember(room.id, 'mia')).to.equal(true);
        expect((await as('olga').roomMembers(room.id)).map((m) => [m.userId, m.role])).to.deep.equal([['max', 'moderator'], ['olga', 'owner']].sort());
        const direct = await as('mia').directRoom('max');
        expect(await as('max').directRoom('mia')).to.deep.equal(direct);
        await expectRefused(as('mia').addMember(direct.id, 'nina'), 'CHAT_ROLE_REQUIRED');
      });
    });

    it('creates the room of a resource once and joins it', async () => {
      await acme(async () => {
        const [a, b] = await Promise.all([as('alice').resourceRoom('task:42', { join: true }), as('bob').resourceRoom('task:42', { join: true })]);
        expect(a.id).to.equal(b.id);
        expect((await as('alice').roomMembers(a.id)).map((m) => m.userId).sort()).to.deep.equal(['alice', 'bob']);
        await expectRefused(as('alice').resourceRoom('task 42'), 'CHAT_INVALID_INPUT');
      });
    });

    it('moves the read watermark forward only, and says how many are unread', async () => {
      await acme(async () => {
        const room = await as('alice').createRoom({ members: ['bob'] });
        for (let i = 1; i <= 4; i++) await as('alice').send(room.id, { clientMessageId: `c${i}`, text: `m${i}` });
        expect(await as('bob').markRead(room.id, 3)).to.deep.equal({ roomId: room.id, lastReadSeq: 3, unread: 1 });
        expect(await as('bob').markRead(room.id, 1)).to.deep.equal({ roomId: room.id, lastReadSeq: 3, unread: 1 });
        expect(await as('bob').markRead(room.id, 99)).to.deep.equal({ roomId: room.id, lastReadSeq: 4, unread: 0 });
        expect(events.filter((e) => e.type === 'read')).to.deep.equal([
          { type: 'read', roomId: room.id, userId: 'bob', lastReadSeq: 3 },
          { type: 'read', roomId: room.id, userId: 'bob', lastReadSeq: 4 },
        ]);
      });
    });

    it('answers bad input with a 400 naming the field', async () => {
      await acme(async () => {
        const room = await as('alice').createRoom();
        expect((await expectRefused(as('alice').history('not-a-room'), 'CHAT_INVALID_INPUT')).status).to.equal(400);
        expect((await expectRefused(as('alice').send(room.id, { clientMessageId: '', text: 'x' }), 'CHAT_INVALID_INPUT')).message).to.contain('clientMessageId');
        expect((await expectRefused(as('alice').send(room.id, { clientMessageId: 'a', text: '   ' }), 'CHAT_INVALID_INPUT')).message).to.contain('text');
        expect((await expectRefused(as('alice').send(room.id, { clientMessageId: 'b', text: 'x', attachments: ['../etc/passwd'] }), 'CHAT_INVALID_INPUT')).message).to.contain('attachments[0]');
        await expectRefused(as('alice').send(room.id, { clientMessageId: 'c', text: 'x', parentId: '999999' }), 'CHAT_MESSAGE_NOT_FOUND');
      });
    });
  });
}

describe('chat limits and hooks (PGlite)', function () {
  this.timeout(120_000);
  const database = useChatDatabase(ENGINES[0]!);

  it('refuses a message over the size limit, a member over the rate, and a room over its size', async () => {
    const chat = createChat({ limits: { maxMessageBytes: 10, messagesPerMinute: 3, maxRoomMembers: 3, maxAttachments: 1 } });
    await acme(async () => {
      const alice = chat.as('alice', database.db());
      const room = await alice.createRoom({ members: ['bob'] });
      const big = await expectRefused(alice.send(room.id, { clientMessageId: 'big', text: 'ééééééé' }), 'CHAT_MESSAGE_TOO_LARGE');
      expect(big.status).to.equal(413);
      await expectRefused(alice.send(room.id, { clientMessageId: 'two', text: 'x', attachments: ['a', 'b'] }), 'CHAT_MESSAGE_TOO_LARGE');
      for (let i = 0; i < 3; i++) await alice.send(room.id, { clientMessageId: `ok${i}`, text: 'fine' });
      const limited = await expectRefused(alice.send(room.id, { clientMessageId: 'one-more', text: 'fine' }), 'CHAT_RATE_LIMITED');
      expect(limited.status).to.equal(429);
      expect(Number(limited.headers['retry-after'])).to.be.within(1, 60);
      // A retry of a message already sent is not a new message: it is answered, not limited.
      expect((await alice.send(room.id, { clientMessageId: 'ok0', text: 'fine' })).duplicate).to.equal(true);
      await alice.addMember(room.id, 'carol');
      expect((await expectRefused(alice.addMember(room.id, 'dave'), 'CHAT_ROOM_FULL')).status).to.equal(409);
      await expectRefused(alice.createRoom({ members: ['a', 'b', 'c'] }), 'CHAT_ROOM_FULL');
    });
  });

  it('runs the pre-send hook: rejects, redacts, and refuses when it runs out of time', async () => {
    let stall: Promise<void> | undefined;
    const chat = createChat({
      preSendBudgetMs: 50,
      preSend: async (draft) => {
        if (stall) await stall;
        if (draft.text.includes('spam')) return { reject: 'looks like spam' };
        return { text: draft.text.replace(/\d{4}-\d{4}-\d{4}-\d{4}/g, '[card]') };
      },
    });
    await acme(async () => {
      const alice = chat.as('alice', database.db());
      const room = await alice.createRoom();
      const rejected = await expectRefused(alice.send(room.id, { clientMessageId: 's', text: 'buy spam' }), 'CHAT_MESSAGE_REJECTED');
      expect(rejected.message).to.contain('looks like spam');
      expect((await alice.send(room.id, { clientMessageId: 'c', text: 'card 1234-5678-9012-3456' })).message.text).to.equal('card [card]');
      let release!: () => void;
      stall = new Promise<void>((resolve) => (release = resolve));
      const timedOut = await expectRefused(alice.send(room.id, { clientMessageId: 't', text: 'slow' }), 'CHAT_PRE_SEND_TIMEOUT');
      expect(timedOut.status).to.equal(503);
      release();
      stall = undefined;
      expect((await alice.history(room.id)).messages.map((m) => m.text)).to.deep.equal(['card [card]']);
    });
  });

  it("runs outside any tenant scope on a tenant's database (the WebSocket handler's way), its hooks inside the tenant's scope", async () => {
    const seen: { hook: string; tenant: string | undefined }[] = [];
    const chat = createChat({
      preSend: (draft) => {
        seen.push({ hook: 'preSend', tenant: currentTenant()?.id });
        return draft.text === 'no' ? { reject: 'no' } : undefined;
      },
      onEvent: (event) => void seen.push({ hook: `onEvent ${event.type}`, tenant: currentTenant()?.id }),
    });
    // What src/realtime/chat-socket.ts does with a frame's tenant: no runWithTenant around the operations.
    const session = (user: string, tenant: string) => chat.as(user, tenantDatabase(database.db(), { id: tenant }), { tenant: { id: tenant } });
    expect(currentTenant()).to.equal(undefined);
    const room = await session('alice', 'acme').createRoom({ members: ['bob'] });
    const { message } = await session('alice', 'acme').send(room.id, { clientMessageId: 'c1', text: 'acme only' });
    await expectRefused(session('alice', 'acme').send(room.id, { clientMessageId: 'c2', text: 'no' }), 'CHAT_MESSAGE_REJECTED');
    expect(seen.filter((s) => !s.hook.startsWith('onEvent member.'))).to.deep.equal([
      { hook: 'preSend', tenant: 'acme' },
      { hook: 'onEvent message.sent', tenant: 'acme' },
      { hook: 'preSend', tenant: 'acme' },
    ]);
    // Row-level security as in a tenant scope: another tenant's session (same user ids) finds nothing, in any scope.
    const bob = session('bob', 'globex');
    expect(await bob.rooms()).to.deep.equal([]);
    await expectRefused(bob.history(room.id), 'CHAT_ROOM_NOT_FOUND');
    await expectRefused(acme(() => bob.send(room.id, { clientMessageId: 'g1', text: 'hello?' })), 'CHAT_ROOM_NOT_FOUND');
    await expectRefused(bob.edit(message.id, 'x'), 'CHAT_MESSAGE_NOT_FOUND');
    expect((await acme(() => chat.as('bob', database.db()).history(room.id))).messages.map((m) => m.text)).to.deep.equal(['acme only']);
  });

  it('shows presence until its heartbeat expires, passes typing on at most once per interval, and lets it expire', async () => {
    const chat = createChat({ presence: { ttlMs: 300, typingTtlMs: 200, typingIntervalMs: 100 } });
    await acme(async () => {
      const alice = chat.as('alice', database.db());
      const bob = chat.as('bob', database.db());
      const room = await alice.createRoom({ members: ['bob'] });
      expect(await bob.heartbeat(room.id)).to.equal(true);
      expect(await bob.heartbeat(room.id)).to.equal(false); // no change to tell the room
      expect(await bob.heartbeat(room.id, 'away')).to.equal(true);
      expect(await bob.typing(room.id)).to.equal(true);
      expect(await bob.typing(room.id)).to.equal(false); // within typingIntervalMs: dropped
      expect(await alice.presence(room.id)).to.deep.equal([{ userId: 'bob', status: 'away', typing: true }]);
      await eventuallyTrue(async () => (await alice.presence(room.id)).every((p) => !p.typing));
      await eventuallyTrue(async () => (await alice.presence(room.id)).length === 0);
      await expectRefused(chat.as('eve', database.db()).presence(room.id), 'CHAT_NOT_A_MEMBER');
      await expectRefused(bob.heartbeat(room.id, 'dancing' as 'away'), 'CHAT_INVALID_INPUT');
    });
  });

  it('checks its options when created', () => {
    expect(() => createChat({ limits: { maxMessageBytes: 0 } })).to.throw(/maxMessageBytes/);
    expect(() => createChat({ preSendBudgetMs: 60_000 })).to.throw(/preSendBudgetMs/);
    expect(() => createChat({ presence: { typingTtlMs: 100, typingIntervalMs: 500 } })).to.throw(/typingIntervalMs/);
  });
});
