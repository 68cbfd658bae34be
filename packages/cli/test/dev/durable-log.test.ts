import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AppendOnlyLog, LogInUseError, encodeRecord } from '../../src/dev/durable-log/index.js';

/** A tiny key-value state kept in a log, as the queue engine keeps its messages: set and delete with absolute values. */
type KvRecord = { op: 'set'; key: string; value: number } | { op: 'delete'; key: string };

class KvState {
  readonly values = new Map<string, number>();
  apply(record: KvRecord): void {
    if (record.op === 'set') this.values.set(record.key, record.value);
    else this.values.delete(record.key);
  }
  snapshot(): KvRecord[] {
    return [...this.values].map(([key, value]) => ({ op: 'set', key, value }));
  }
}

async function openKv(file: string, compactMinRecords?: number): Promise<{ log: AppendOnlyLog<KvRecord>; state: KvState; recovered: string[] }> {
  const state = new KvState();
  const recovered: string[] = [];
  const { log, records } = await AppendOnlyLog.open<KvRecord>(file, { snapshot: () => state.snapshot(), compactMinRecords, onRecover: (p) => recovered.push(p) });
  for (const record of records) state.apply(record);
  return { log, state, recovered };
}

/** Changes the state first, then appends, as the contract of `snapshot` asks. */
function change(kv: { log: AppendOnlyLog<KvRecord>; state: KvState }, record: KvRecord): Promise<void> {
  kv.state.apply(record);
  return kv.log.append(record);
}

const lines = (file: string) => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);

describe('append-only log of fw dev engines', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-log-'));
    file = path.join(dir, 'nested', 'state.log');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('creates the file and its folder, and gives back every record appended, in order, after reopening', async () => {
    const first = await openKv(file);
    await change(first, { op: 'set', key: 'a', value: 1 });
    await change(first, { op: 'set', key: 'b', value: 2 });
    await change(first, { op: 'delete', key: 'a' });
    await first.log.close();

    const second = await openKv(file);
    expect([...second.state.values]).to.deep.equal([['b', 2]]);
    expect(lines(file)).to.have.length(3);
    expect(second.recovered).to.deep.equal([]);
    await second.log.close();
  });

  it('drops a torn last record (a crash mid-write), truncates it away, and appends cleanly after it', async () => {
    const first = await openKv(file);
    for (const value of [1, 2, 3]) await change(first, { op: 'set', key: `k${value}`, value });
    await first.log.close();
    const whole = fs.statSync(file).size;
    const torn = encodeRecord({ op: 'set', key: 'k4', value: 4 });
    fs.appendFileSync(file, torn.slice(0, torn.length - 7));

    const second = await openKv(file);
    expect([...second.state.values.keys()]).to.deep.equal(['k1', 'k2', 'k3']);
    expect(second.recovered.join()).to.match(/torn last record/);
    expect(fs.statSync(file).size).to.equal(whole);
    await change(second, { op: 'set', key: 'k5', value: 5 });
    await second.log.close();

    const third = await openKv(file);
    expect([...third.state.values.keys()]).to.deep.equal(['k1', 'k2', 'k3', 'k5']);
    expect(third.recovered).to.deep.equal([]);
    await third.log.close();
  });

  it('drops a last line whose checksum does not match (garbage after the last record)', async () => {
    const first = await openKv(file);
    await change(first, { op: 'set', key: 'a', value: 1 });
    await first.log.close();
    const good = encodeRecord({ op: 'set', key: 'b', value: 2 });
    fs.appendFileSync(file, good.replace('"value":2', '"value":3'));

    const second = await openKv(file);
    expect([...second.state.values]).to.deep.equal([['a', 1]]);
    expect(second.recovered.join()).to.match(/torn last record/);
    await second.log.close();
  });

  it('skips a corrupt record in the middle, says so, and keeps the records after it', async () => {
    const first = await openKv(file);
    for (const value of [1, 2, 3]) await change(first, { op: 'set', key: `k${value}`, value });
    await first.log.close();
    const text = lines(file);
    text[1] = text[1]!.replace('"k2"', '"kX"');
    fs.writeFileSync(file, `${text.join('\n')}\n`);

    const second = await openKv(file);
    expect([...second.state.values.keys()]).to.deep.equal(['k1', 'k3']);
    expect(second.recovered.join()).to.match(/skipped 1 corrupt record/);
    await second.log.close();
  });

  it('group-commits: appends made in the same tick share one write and one fdatasync', async () => {
    const kv = await openKv(file);
    await Promise.all(Array.from({ length: 200 }, (_, i) => change(kv, { op: 'set', key: `k${i}`, value: i })));
    expect(kv.log.stats).to.include({ flushes: 1, records: 200 });
    await kv.log.close();
    expect(lines(file)).to.have.length(200);
  });

  it('compacts a file that holds mostly dead records into the live state, and the state reads back the same', async () => {
    const kv = await openKv(file, 50);
    for (let i = 0; i < 300; i++) {
      await change(kv, { op: 'set', key: `k${i % 5}`, value: i });
    }
    await change(kv, { op: 'delete', key: 'k0' });
    expect(kv.log.stats.compactions).to.be.greaterThan(0);
    expect(lines(file).length).to.be.lessThan(60);
    const expected = [...kv.state.values];
    await kv.log.close();

    const reopened = await openKv(file, 50);
    expect([...reopened.state.values]).to.deep.equal(expected);
    expect(expected).to.deep.equal([['k1', 296], ['k2', 297], ['k3', 298], ['k4', 299]]);
    await reopened.log.close();
  });

  it('ignores and removes a compaction file left by a crash before its rename', async () => {
    const first = await openKv(file);
    await change(first, { op: 'set', key: 'a', value: 1 });
    await first.log.close();
    fs.writeFileSync(`${file}.compact`, encodeRecord({ op: 'set', key: 'half-written', value: 0 }));

    const second = await openKv(file);
    expect([...second.state.values]).to.deep.equal([['a', 1]]);
    expect(fs.existsSync(`${file}.compact`)).to.equal(false);
    await second.log.close();
  });

  it('refuses a log another live process has open, and takes over the lock of a process that is gone', async () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // The test runner's parent process is alive: as if another fw dev had the log open.
    fs.writeFileSync(`${file}.lock`, `${process.ppid}\n`);
    let error: unknown;
    await openKv(file).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(LogInUseError).with.property('pid', process.ppid);
    expect(String(error)).to.match(/another fw dev in this project: stop it first/);

    // The same pid with another start time is a new process that got a killed owner's pid: the lock is stale.
    fs.writeFileSync(`${file}.lock`, `${process.ppid} 1\n`);
    const reused = await openKv(file);
    await reused.log.close();
    expect(fs.existsSync(`${file}.lock`), 'a clean close releases the lock').to.equal(false);

    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    fs.writeFileSync(`${file}.lock`, `${gone}\n`);
    const kv = await openKv(file);
    expect(fs.readFileSync(`${file}.lock`, 'utf8')).to.match(new RegExp(`^${process.pid} `));
    await kv.log.close();
  });

  it('rejects appends after close, after writing what was pending', async () => {
    const kv = await openKv(file);
    const pending = change(kv, { op: 'set', key: 'a', value: 1 });
    await kv.log.close();
    await pending;
    let error: unknown;
    await kv.log.append({ op: 'set', key: 'b', value: 2 }).catch((e: unknown) => (error = e));
    expect(String(error)).to.match(/closed/);
    expect(lines(file)).to.have.length(1);
  });
});
