/**
 * @framework/notify on the local engines, two figures, each against an anchor of the same run:
 *
 * 1. The added latency of `notify.send` inside a business transaction: a transaction that inserts a task (anchor) vs
 *    the same transaction plus `notify.send` of "task assigned" by email and SMS (two outbox rows). Blocks of both
 *    alternate so drift on a shared machine hits both; the figure is the median of paired blocks.
 * 2. Dispatcher throughput, outbox to the local inbox's SMTP server: messages/s for committed rows claimed, rendered
 *    (MJML), sent over SMTP (nodemailer, pooled) and recorded (status + delivery log), vs the same rendered messages
 *    sent straight over SMTP with no outbox (anchor). The inbox keeps messages in memory for both, as `fw dev` would
 *    with its disk log left out, so the figure is the outbox's cost, not the disk's.
 *
 * Run: npx projen bench:notify   (native PostgreSQL when installed, else PGlite)
 */
import { Database, sql } from '@framework/data';
import { migrate, parseMigration } from '@framework/data/migrations';
import { createNotifier, defineNotification, Dispatcher, escapeHtml, idempotencyKeyOf, NOTIFY_MIGRATION_SQL, renderMessage, smtpProvider, type OutgoingMessage } from '@framework/notify';
import { LocalInbox } from '@framework/notify/local';
import { startNative, startPglite, type BenchServer } from '../data/server.js';

const ROUNDS = 30;
const PER_BLOCK = 100;
const DISPATCH_MESSAGES = 2000;

const templates = {
  'task-assigned': defineNotification<{ title: string; name: string }>({
    email: {
      subject: (d) => `Task assigned: ${d.title}`,
      mjml: (d) => `<mjml><mj-body><mj-section><mj-column><mj-text>Hi ${escapeHtml(d.name)}, you have a new task: <b>${escapeHtml(d.title)}</b></mj-text></mj-column></mj-section></mj-body></mjml>`,
      text: (d) => `Hi ${d.name}, you have a new task: ${d.title}`,
    },
    sms: (d) => `Task assigned to you: ${d.title}`,
  }),
};

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

async function block(fn: (i: number) => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < PER_BLOCK; i++) await fn(i);
  return Number(process.hrtime.bigint() - start) / 1000 / PER_BLOCK;
}

async function sendLatency(db: Database): Promise<void> {
  const notify = createNotifier({ templates });
  const bare = (i: number) => db.transaction((tx) => tx.query(sql`INSERT INTO bench_tasks (title) VALUES (${`t${i}`})`));
  const withNotify = (i: number) =>
    db.transaction(async (tx) => {
      await tx.query(sql`INSERT INTO bench_tasks (title) VALUES (${`t${i}`})`);
      await notify.send(tx, { to: { email: `u${i}@example.com`, phone: '+14155550100' }, template: 'task-assigned', data: { title: `t${i}`, name: 'Ada' } });
    });
  await block(bare);
  await block(withNotify);
  const bareTimes: number[] = [];
  const notifyTimes: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    if (r % 2 === 0) {
      bareTimes.push(await block(bare));
      notifyTimes.push(await block(withNotify));
    } else {
      notifyTimes.push(await block(withNotify));
      bareTimes.push(await block(bare));
    }
  }
  const a = median(bareTimes);
  const b = median(notifyTimes);
  const paired = median(notifyTimes.map((t, i) => t / (bareTimes[i] as number)));
  console.log(`notify.send in the transaction: bare insert transaction ${a.toFixed(0)} µs (anchor), with notify.send (email + sms rows) ${b.toFixed(0)} µs, added ${(b - a).toFixed(0)} µs, ratio ${paired.toFixed(3)} (median of paired blocks)`);
}

async function dispatchThroughput(db: Database): Promise<void> {
  const inbox = await LocalInbox.start({ host: '127.0.0.1', token: 'bench' });
  const smtp = smtpProvider({ host: '127.0.0.1', port: inbox.smtpPort, from: 'bench@example.com', pool: true });
  let received = 0;
  inbox.onMessage(() => received++);
  try {
    await db.query(sql`DELETE FROM fw_notify_delivery_log`);
    await db.query(sql`DELETE FROM fw_notify_outbox`);
    // Anchor: the same messages, rendered once, sent straight over SMTP, 50 at a time (the dispatcher's batch).
    const rendered: OutgoingMessage[] = [];
    for (let i = 0; i < DISPATCH_MESSAGES; i++) {
      rendered.push(await renderMessage(templates, { id: `direct-${i}`, channel: 'email', to: `d${i}@example.com`, template: 'task-assigned', category: 'transactional', data: { title: `t${i}`, name: 'Ada' } }));
    }
    const directStart = process.hrtime.bigint();
    for (let i = 0; i < rendered.length; i += 50) {
      await Promise.all(rendered.slice(i, i + 50).map((m) => smtp.send(m, { idempotencyKey: idempotencyKeyOf(m.id) })));
    }
    const directSeconds = Number(process.hrtime.bigint() - directStart) / 1e9;

    const notify = createNotifier({ templates });
    await db.transaction(async (tx) => {
      for (let i = 0; i < DISPATCH_MESSAGES; i++) await notify.send(tx, { to: { email: `o${i}@example.com` }, template: 'task-assigned', data: { title: `t${i}`, name: 'Ada' } });
    });
    const dispatcher = new Dispatcher({ db, templates, providers: [smtp], log: () => undefined });
    const start = process.hrtime.bigint();
    const report = await dispatcher.sweep({ batchSize: 50, maxRows: DISPATCH_MESSAGES });
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    if (report.sent !== DISPATCH_MESSAGES) throw new Error(`sent ${report.sent} of ${DISPATCH_MESSAGES}: ${JSON.stringify(report)}`);
    if (received !== 2 * DISPATCH_MESSAGES) throw new Error(`the inbox holds ${received} messages, expected ${2 * DISPATCH_MESSAGES}`);
    const direct = DISPATCH_MESSAGES / directSeconds;
    const outbox = DISPATCH_MESSAGES / seconds;
    console.log(`dispatcher throughput, outbox -> SMTP sink: direct SMTP ${direct.toFixed(0)} msgs/s (anchor), dispatcher ${outbox.toFixed(0)} msgs/s (claim + MJML render + send + status and log writes), ratio ${(outbox / direct).toFixed(3)}`);
  } finally {
    smtp.close();
    await inbox.stop();
  }
}

async function main(): Promise<void> {
  const server: BenchServer = (await startNative().catch(() => undefined)) ?? (await startPglite());
  const db = new Database({ connection: { host: '127.0.0.1', port: server.port, database: 'postgres', user: 'postgres', ssl: false }, logger: { warn: () => undefined } });
  try {
    await migrate(db, { migrations: [parseMigration('0001_notify_outbox.sql', NOTIFY_MIGRATION_SQL)] });
    await db.query(sql`CREATE TABLE bench_tasks (id serial PRIMARY KEY, title text NOT NULL)`);
    console.log(`server: ${server.label}; ${ROUNDS} rounds x ${PER_BLOCK} sequential transactions per side; ${DISPATCH_MESSAGES} messages dispatched`);
    await sendLatency(db);
    await dispatchThroughput(db);
  } finally {
    await db.end();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
