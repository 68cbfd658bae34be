import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { startApp, type TestApp } from '@framework/testing';
import WebSocket from 'ws';
import { createClient, type Client } from '../src/client.gen.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

type Frame = Record<string, any>;

/** Polls `check` until it returns true (the machine may be slow: a generous bound, no wall-time assertion). */
async function eventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One chat client over the app's WebSocket API: `call` sends an op and resolves with its ack (rejects with its error frame). */
class ChatClient {
  readonly pushed: Frame[] = [];
  private readonly waiting = new Map<string, { resolve: (frame: Frame) => void; reject: (error: Error & { frame?: Frame }) => void }>();
  private next = 0;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString('utf8')) as Frame;
      const waiter = typeof frame['ref'] === 'string' ? this.waiting.get(frame['ref']) : undefined;
      if (waiter && (frame['type'] === 'ack' || frame['type'] === 'error')) {
        this.waiting.delete(frame['ref']);
        if (frame['type'] === 'ack') waiter.resolve(frame);
        else waiter.reject(Object.assign(new Error(`${frame['code']}: ${frame['message']}`), { frame }));
      } else this.pushed.push(frame);
    });
  }

  static async connect(url: string, token: string): Promise<ChatClient> {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/_ws?token=${encodeURIComponent(token)}`);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new ChatClient(socket);
  }

  call(op: string, fields: Frame = {}): Promise<Frame> {
    const ref = String(++this.next);
    return new Promise((resolve, reject) => {
      this.waiting.set(ref, { resolve, reject });
      this.socket.send(JSON.stringify({ action: 'chat', op, ref, ...fields }));
    });
  }

  /** The error code an op is refused with. */
  async refusal(op: string, fields: Frame): Promise<string> {
    const error = await this.call(op, fields).then(
      () => expect.fail(`${op} was expected to be refused`),
      (e: Error & { frame?: Frame }) => e,
    );
    return (error as Error & { frame: Frame }).frame['code'];
  }

  /** Messages pushed to this client, by seq, each once (a client drops a seq it has: see the protocol). */
  messages(roomId: string): Frame[] {
    const bySeq = new Map<number, Frame>();
    for (const frame of this.pushed) if (frame['type'] === 'message.sent' && frame['roomId'] === roomId) bySeq.set(frame['message'].seq, frame['message']);
    return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  }

  pushesOf(type: string): Frame[] {
    return this.pushed.filter((frame) => frame['type'] === type);
  }

  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }
}

/**
 * The acceptance of chat (@framework-pro/chat) on fw dev: a task's discussion room, members chatting over the app's
 * WebSocket API with the `ws` client (messages, typing, read receipts, presence, resume after a reconnect), the HTTP
 * API, exact unread counts in a 500-member room, and refusals for a non-member and another tenant.
 */
describe('tasks-api chat: a discussion room per task', function () {
  this.timeout(300_000);
  let app: TestApp<Client>;
  const clients: ChatClient[] = [];
  const tokens = new Map<string, string>();

  async function token(sub: string, tenant = 'acme'): Promise<string> {
    const key = `${tenant}/${sub}`;
    if (!tokens.has(key)) {
      const response = await fetch(`${app.url}/_dev/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sub, scopes: ['tasks:read', 'tasks:write'], tenant }) });
      expect(response.status, await response.clone().text()).to.equal(200);
      tokens.set(key, ((await response.json()) as { access_token: string }).access_token);
    }
    return tokens.get(key)!;
  }

  async function http(method: string, route: string, sub: string, body?: unknown, tenant = 'acme'): Promise<{ status: number; body: any }> {
    const response = await fetch(`${app.url}${route}`, {
      method,
      headers: { authorization: `Bearer ${await token(sub, tenant)}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  async function connect(sub: string, tenant = 'acme'): Promise<ChatClient> {
    const client = await ChatClient.connect(app.url, await token(sub, tenant));
    clients.push(client);
    return client;
  }

  /** A task of alice's and its room, with bob and carol added by alice (the task's owner). */
  async function taskRoom(members: string[]): Promise<string> {
    const task = await http('POST', '/tasks', 'alice', { title: 'Plan the launch' });
    expect(task.status).to.equal(201);
    const opened = await http('POST', `/tasks/${task.body.id}/chat`, 'alice', { members });
    expect(opened.status, JSON.stringify(opened.body)).to.equal(201);
    expect(opened.body.room).to.include({ kind: 'group', name: 'Plan the launch', resource: `task:${task.body.id}` });
    return opened.body.room.id;
  }

  before(async () => {
    app = await startApp({ root, client: createClient });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  after(() => app?.stop());

  it("lets two users of a task's room see each other's messages, typing and read receipts", async () => {
    const roomId = await taskRoom(['bob']);
    const alice = await connect('alice');
    const bob = await connect('bob');
    const joined = await alice.call('join', { roomId });
    expect(joined['room']).to.include({ id: roomId });
    await bob.call('join', { roomId });

    const sent = await alice.call('send', { roomId, clientMessageId: 'a-1', text: 'Hi Bob, can you take the slides?' });
    expect(sent['message']).to.include({ seq: 1, sender: 'alice', text: 'Hi Bob, can you take the slides?' });
    await eventually(() => bob.messages(roomId).length === 1, "bob's copy of alice's message");
    expect(bob.messages(roomId)[0]).to.include({ sender: 'alice', seq: 1 });

    const typing = await bob.call('typing', { roomId });
    expect(typing['passedOn']).to.equal(true);
    await eventually(() => alice.pushesOf('typing').some((f) => f['userId'] === 'bob'), 'alice seeing bob type');
    // Typing again at once is dropped (rate limit), not passed on.
    expect((await bob.call('typing', { roomId }))['passedOn']).to.equal(false);
    await bob.call('send', { roomId, clientMessageId: 'b-1', text: 'Sure, on it' });
    await eventually(() => alice.messages(roomId).some((m) => m.text === 'Sure, on it'), "alice's copy of bob's reply");

    // Bob's own message moved his watermark past alice's: a late receipt for seq 1 moves nothing.
    expect(await bob.call('read', { roomId, seq: 1 })).to.include({ lastReadSeq: 2, unread: 0 });
    const rooms = await http('GET', '/chat/rooms', 'alice');
    expect(rooms.body.find((r: Frame) => r.id === roomId)).to.include({ unread: 1, role: 'owner', lastReadSeq: 1 });
    // Alice reads bob's reply: bob gets the read receipt.
    expect(await alice.call('read', { roomId, seq: 2 })).to.include({ lastReadSeq: 2, unread: 0 });
    await eventually(() => bob.pushesOf('read').some((f) => f['userId'] === 'alice' && f['lastReadSeq'] === 2), 'the read receipt reaching bob');
    const members = await http('GET', `/chat/rooms/${roomId}/members`, 'bob');
    expect(members.body.map((m: Frame) => [m.userId, m.role, m.lastReadSeq])).to.deep.equal([
      ['alice', 'owner', 2],
      ['bob', 'member', 2],
    ]);

    // Typing expires by itself (the example's typingTtlMs).
    await eventually(async () => ((await alice.call('presence', { roomId }))['presence'] as Frame[]).some((p) => p.userId === 'bob' && p.typing === false), "bob's typing to expire");
  });

  it('orders the messages of 3 members, resumes a reconnect without gaps or duplicates, and expires presence', async () => {
    const roomId = await taskRoom(['bob', 'carol']);
    const members = { alice: await connect('alice'), bob: await connect('bob'), carol: await connect('carol') };
    for (const client of Object.values(members)) await client.call('join', { roomId });
    await Promise.all(
      Object.entries(members).map(async ([name, client]) => {
        for (let i = 1; i <= 5; i++) await client.call('send', { roomId, clientMessageId: `${name}-${i}`, text: `${name} ${i}` });
      }),
    );
    for (const client of Object.values(members)) await eventually(() => client.messages(roomId).length === 15, 'every message reaching every member');
    for (const [name, client] of Object.entries(members)) {
      const messages = client.messages(roomId);
      expect(messages.map((m) => m.seq), `${name}'s view`).to.deep.equal(Array.from({ length: 15 }, (_, i) => i + 1));
      for (const sender of Object.keys(members)) expect(messages.filter((m) => m.sender === sender).map((m) => m.text)).to.deep.equal([1, 2, 3, 4, 5].map((i) => `${sender} ${i}`));
    }
    // A retried send (same client message id) answers the first message and pushes nothing new.
    const retry = await members.bob.call('send', { roomId, clientMessageId: 'bob-1', text: 'bob 1' });
    expect(retry['duplicate']).to.equal(true);

    // Carol drops off; the others go on; she reconnects and resumes after the last seq she had.
    const lastSeen = members.carol.messages(roomId).at(-1)!.seq;
    await members.carol.close();
    for (let i = 6; i <= 8; i++) await members.alice.call('send', { roomId, clientMessageId: `alice-${i}`, text: `alice ${i}` });
    await members.bob.call('send', { roomId, clientMessageId: 'bob-6', text: 'bob 6' });
    const carol = await connect('carol');
    const resumed = await carol.call('join', { roomId, after: lastSeen });
    const missed = (resumed['messages'] as Frame[]).map((m) => m.seq);
    expect(missed).to.deep.equal([16, 17, 18, 19]);
    const history = await http('GET', `/chat/rooms/${roomId}/messages?after=0&limit=200`, 'carol');
    expect(history.body.messages.map((m: Frame) => m.seq)).to.deep.equal(Array.from({ length: 19 }, (_, i) => i + 1));
    // Carol read nothing: her watermark is her own last message (sending marks it read), and unread counts the rest.
    const own = Math.max(...history.body.messages.filter((m: Frame) => m.sender === 'carol').map((m: Frame) => m.seq));
    const unread = history.body.messages.filter((m: Frame) => m.seq > own && m.sender !== 'carol').length;
    expect(resumed['readState']).to.include({ lastReadSeq: own, unread });

    // Bob closes his connection without leaving: his presence expires (the example's ttlMs) without a heartbeat.
    const online = async () => ((await carol.call('presence', { roomId }))['presence'] as Frame[]).map((p) => p.userId);
    expect(await online()).to.include('bob');
    await members.bob.close();
    await eventually(async () => !(await online()).includes('bob'), "bob's presence to expire", 120_000);
    expect(await online()).to.include('carol');
  });

  it('resumes a reconnect with the edits and reactions made meanwhile, not only new messages, each once', async () => {
    const roomId = await taskRoom(['bob']);
    const alice = await connect('alice');
    let bob = await connect('bob');
    for (const client of [alice, bob]) await client.call('join', { roomId });
    const one = (await alice.call('send', { roomId, clientMessageId: 'e-1', text: 'draft' }))['message'];
    const two = (await alice.call('send', { roomId, clientMessageId: 'e-2', text: 'second' }))['message'];
    await eventually(() => bob.messages(roomId).length === 2, 'both messages reaching bob');
    const cursor = Math.max(...bob.pushed.filter((f) => f['message']).map((f) => f['message'].rev as number));
    await bob.close();

    await alice.call('edit', { messageId: one.id, text: 'final' });
    await alice.call('react', { messageId: two.id, emoji: '👍' });
    await alice.call('send', { roomId, clientMessageId: 'e-3', text: 'third' });
    bob = await connect('bob');
    const resumed = (await bob.call('join', { roomId, since: cursor }))['messages'] as Frame[];
    expect(resumed.map((m) => [m.seq, m.text, m.editedAt !== null, m.reactions])).to.deep.equal([
      [1, 'final', true, []],
      [2, 'second', false, [{ emoji: '👍', users: ['alice'] }]],
      [3, 'third', false, []],
    ]);
    expect(new Set(resumed.map((m) => m.id)).size, 'each message once').to.equal(resumed.length);
    // Resuming again from the highest revision held: nothing is missing, nothing comes twice.
    const last = Math.max(...resumed.map((m) => m.rev as number));
    expect((await bob.call('history', { roomId, since: last }))['messages']).to.deep.equal([]);
    // The older cursor (a seq: new messages only) still works as it did.
    expect(((await bob.call('history', { roomId, after: 2 }))['messages'] as Frame[]).map((m) => m.seq)).to.deep.equal([3]);
  });

  it('counts unread exactly in a 500-member room over HTTP', async () => {
    const everyone = Array.from({ length: 499 }, (_, i) => `member-${i + 1}`);
    const created = await http('POST', '/chat/rooms', 'alice', { name: 'all hands', members: everyone });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const roomId = created.body.id as string;
    for (let i = 1; i <= 4; i++) expect((await http('POST', `/chat/rooms/${roomId}/messages`, 'alice', { clientMessageId: `m${i}`, text: `update ${i}` })).status).to.equal(201);
    expect((await http('POST', `/chat/rooms/${roomId}/messages`, 'member-250', { clientMessageId: 'q', text: 'question' })).status).to.equal(201);
    expect((await http('POST', `/chat/rooms/${roomId}/read`, 'member-17', { seq: 3 })).body).to.include({ lastReadSeq: 3, unread: 2 });
    const unreadOf = async (sub: string) => (await http('GET', '/chat/rooms', sub)).body.find((r: Frame) => r.id === roomId).unread;
    expect(await unreadOf('member-17')).to.equal(2);
    expect(await unreadOf('member-499')).to.equal(5);
    expect(await unreadOf('member-250')).to.equal(0); // its own message moved its watermark to seq 5
    expect(await unreadOf('alice')).to.equal(1);
    expect((await http('POST', `/chat/rooms/${roomId}/members`, 'alice', { userId: 'one-too-many' })).body.error.code).to.equal('CHAT_ROOM_FULL');
  });

  it("stops pushing to a removed member's connections and to one who left, at once, and never reaches another tenant's", async () => {
    const roomId = await taskRoom(['bob', 'carol']);
    const alice = await connect('alice');
    const bobs = [await connect('bob'), await connect('bob')];
    const carol = await connect('carol');
    // The same subject in another tenant: a connection of its own, which never joined acme's room.
    const bobOfGlobex = await connect('bob', 'globex');
    for (const client of [alice, ...bobs, carol]) await client.call('join', { roomId });
    const first = await alice.call('send', { roomId, clientMessageId: 'r-1', text: 'before' });
    for (const client of [...bobs, carol]) await eventually(() => client.messages(roomId).length === 1, 'the first message reaching every member');

    const removed = await http('DELETE', `/chat/rooms/${roomId}/members/bob`, 'alice');
    expect([removed.status, removed.body]).to.deep.equal([200, { removed: true }]);
    for (const bob of bobs) await eventually(() => bob.pushesOf('member.removed').some((f) => f['userId'] === 'bob'), "bob's connections told of his removal");
    await eventually(() => carol.pushesOf('member.removed').some((f) => f['userId'] === 'bob'), 'carol told of the removal');

    await alice.call('send', { roomId, clientMessageId: 'r-2', text: 'after bob left' });
    await alice.call('edit', { messageId: first['message'].id, text: 'before (edited)' });
    await alice.call('typing', { roomId });
    await eventually(() => carol.messages(roomId).length === 2 && carol.pushesOf('message.edited').length === 1, 'carol getting what followed');
    for (const bob of bobs) {
      // A frame on a socket arrives in order: by the time this refusal is answered, any push sent before it has too.
      expect(await bob.refusal('presence', { roomId })).to.equal('CHAT_NOT_A_MEMBER');
      expect(bob.messages(roomId).map((m) => m.seq), "a removed member's view").to.deep.equal([1]);
      expect(bob.pushesOf('message.edited').concat(bob.pushesOf('typing'))).to.deep.equal([]);
      expect(await bob.refusal('join', { roomId })).to.equal('CHAT_NOT_A_MEMBER');
    }
    expect(await bobOfGlobex.refusal('presence', { roomId })).to.equal('CHAT_ROOM_NOT_FOUND');
    expect(bobOfGlobex.pushed, "another tenant's connection of the same subject").to.deep.equal([]);

    // Carol leaves (removes herself): her connection stops too; alice goes on.
    expect((await http('DELETE', `/chat/rooms/${roomId}/members/carol`, 'carol')).body).to.deep.equal({ removed: true });
    await eventually(() => carol.pushesOf('member.removed').some((f) => f['userId'] === 'carol'), 'carol told she left');
    await alice.call('send', { roomId, clientMessageId: 'r-3', text: 'after carol left' });
    await eventually(() => alice.messages(roomId).length === 3, "alice's own copy");
    expect(await carol.refusal('presence', { roomId })).to.equal('CHAT_NOT_A_MEMBER');
    expect(carol.messages(roomId).map((m) => m.seq)).to.deep.equal([1, 2]);
    // Removing someone who is no longer a member is not an error.
    expect((await http('DELETE', `/chat/rooms/${roomId}/members/carol`, 'alice')).body).to.deep.equal({ removed: false });
  });

  it('refuses a non-member and another tenant, over the socket and over HTTP', async () => {
    const roomId = await taskRoom(['bob']);
    const eve = await connect('eve');
    expect(await eve.refusal('join', { roomId })).to.equal('CHAT_NOT_A_MEMBER');
    expect(await eve.refusal('send', { roomId, clientMessageId: 'e', text: 'let me in' })).to.equal('CHAT_NOT_A_MEMBER');
    expect(await eve.refusal('history', { roomId })).to.equal('CHAT_NOT_A_MEMBER');
    const eveHttp = await http('GET', `/chat/rooms/${roomId}/messages`, 'eve');
    expect([eveHttp.status, eveHttp.body.error.code]).to.deep.equal([403, 'CHAT_NOT_A_MEMBER']);
    // Another tenant's user, even one named bob, does not see the room at all.
    const bobOfGlobex = await connect('bob', 'globex');
    expect(await bobOfGlobex.refusal('join', { roomId })).to.equal('CHAT_ROOM_NOT_FOUND');
    expect(await bobOfGlobex.refusal('send', { roomId, clientMessageId: 'g', text: 'hello?' })).to.equal('CHAT_ROOM_NOT_FOUND');
    const globexHttp = await http('GET', `/chat/rooms/${roomId}/messages`, 'bob', undefined, 'globex');
    expect([globexHttp.status, globexHttp.body.error.code]).to.deep.equal([404, 'CHAT_ROOM_NOT_FOUND']);
    expect((await http('GET', '/chat/rooms', 'bob', undefined, 'globex')).body).to.deep.equal([]);
    // Only the task's owner opens its room.
    const task = await http('POST', '/tasks', 'alice', { title: 'Private' });
    expect((await http('POST', `/tasks/${task.body.id}/chat`, 'eve', {})).status).to.equal(404);
    expect(await eve.refusal('dance', { roomId })).to.equal('CHAT_INVALID_INPUT');
  });
});
