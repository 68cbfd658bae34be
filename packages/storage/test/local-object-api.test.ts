import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, stat, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { createBucketClient, LOCAL_CLIENT_HEADER, StorageRequestError, type BucketClient } from '../src/index.js';
import { LocalStorageEngine } from '../src/local/index.js';
import { bucketDefinition, startEngineServer, type EngineServer } from './helpers/engine-server.js';
import { text } from './helpers/files.js';

const s3Code = (body: string) => /<Code>([^<]*)<\/Code>/.exec(body)?.[1];

describe('the local engine object API (real HTTP)', () => {
  let server: EngineServer;
  let files: BucketClient;

  beforeEach(async () => {
    server = await startEngineServer([bucketDefinition('files')]);
    files = createBucketClient('files', { env: server.env });
  });
  afterEach(async () => server.close());

  describe('answers only the storage client of this run', () => {
    it('refuses a request without this run\'s secret (no header, the old "1", a wrong or another run\'s secret)', async () => {
      await files.put('secret.txt', 'top secret', { contentType: 'text/plain' });
      const url = `${server.baseUrl}/_dev/storage/files`;
      for (const header of [undefined, '1', 'x'.repeat(64), server.env.FW_DEV_STORAGE_TOKEN!.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'))]) {
        const headers: Record<string, string> = header === undefined ? {} : { [LOCAL_CLIENT_HEADER]: header };
        const attempts = [
          fetch(`${url}/secret.txt`, { headers }),
          fetch(`${url}/secret.txt`, { method: 'HEAD', headers }),
          fetch(`${url}/secret.txt`, { method: 'PUT', headers: { ...headers, 'content-type': 'text/plain' }, body: 'overwritten' }),
          fetch(`${url}/secret.txt`, { method: 'DELETE', headers }),
          fetch(`${url}?list-type=2`, { headers }),
          fetch(`${url}?presign`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ operation: 'download', key: 'secret.txt', expiresIn: 60 }) }),
        ];
        for (const res of await Promise.all(attempts)) {
          expect(res.status, `${header} ${res.url}`).to.equal(403);
          const body = await res.text();
          if (body) expect(s3Code(body)).to.equal('AccessDenied');
        }
      }
      expect(await text((await files.get('secret.txt'))!.body)).to.equal('top secret');
    });

    it('a client with another secret gets AccessDenied as a StorageRequestError', async () => {
      const stranger = createBucketClient('files', { env: { ...server.env, FW_DEV_STORAGE_TOKEN: 'f'.repeat(64) } });
      let error: unknown;
      await stranger.list().catch((e: unknown) => (error = e));
      expect(error).to.be.instanceOf(StorageRequestError).with.property('s3Code', 'AccessDenied');
    });

    it('the secret is new on every start and never written under .fw/', async () => {
      const token = server.env.FW_DEV_STORAGE_TOKEN!;
      expect(token).to.match(/^[0-9a-f]{64}$/);
      const other = await LocalStorageEngine.start({ rootDir: server.rootDir, buckets: [bucketDefinition('files')], baseUrl: server.baseUrl, log: () => undefined });
      expect(other.clientEnv().FW_DEV_STORAGE_TOKEN).to.not.equal(token);
      await other.stop();
    });
  });

  it('a presigned GET URL does not answer HEAD (the signature is for GET, as in S3)', async () => {
    await files.put('doc.txt', 'hello', { contentType: 'text/plain' });
    const { url } = await files.presignDownload('doc.txt');
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).to.equal(403);
    expect(head.headers.get('x-fw-error-code')).to.equal('SignatureDoesNotMatch');
    expect((await fetch(url)).status).to.equal(200);
  });

  it('streams a put to disk as it arrives: bytes are on disk before the body has ended', async () => {
    const tmp = path.join(LocalStorageEngine.dataDir(server.rootDir), 'files', '.tmp');
    const tempBytes = async () => {
      let total = 0;
      for (const name of await readdir(tmp)) total += (await stat(path.join(tmp, name)).catch(() => ({ size: 0 }))).size;
      return total;
    };
    const body = new PassThrough();
    const put = files.put('big.bin', body, { contentType: 'application/octet-stream' });
    const chunk = Buffer.alloc(256 * 1024, 7);
    for (let i = 0; i < 4; i++) body.write(chunk);
    // Neither the client nor the engine holds the body until its end: the first MiB reaches the temp file while
    // the stream is still open.
    const deadline = Date.now() + 10_000;
    while ((await tempBytes()) < 4 * chunk.length) {
      if (Date.now() > deadline) throw new Error('the first MiB never reached the disk while the body was open: the put is buffered');
      await new Promise((r) => setTimeout(r, 20));
    }
    body.end(chunk);
    const { etag } = await put;
    const object = await files.head('big.bin');
    expect(object).to.include({ size: 5 * chunk.length, etag });
  });

  it('parallel writers of one key never tear an object: every read shows one writer\'s type, length and bytes', async function () {
    this.timeout(120_000);
    const writers = 8;
    const rounds = 30;
    // Writer i writes i+1 KiB of the byte i, typed `text/plain; writer=i`: any mix of two versions is visible.
    const bodyOf = (i: number) => Buffer.alloc((i + 1) * 1024, 65 + i);
    const torn: string[] = [];
    const check = (type: string | null, length: string | null, bytes: Buffer) => {
      const writer = Number(/writer=(\d+)/.exec(type ?? '')?.[1]);
      const expected = bodyOf(writer);
      if (!Number.isInteger(writer) || Number(length) !== expected.length || !bytes.equals(expected)) torn.push(`type ${type}, length ${length}, ${bytes.length} bytes of ${String.fromCharCode(bytes[0] ?? 0)}`);
    };
    const token = server.env.FW_DEV_STORAGE_TOKEN!;
    const url = `${server.baseUrl}/_dev/storage/files/shared.txt`;
    for (let round = 0; round < rounds; round++) {
      const puts = Array.from({ length: writers }, (_, i) => files.put('shared.txt', bodyOf(i), { contentType: `text/plain; writer=${i}` }));
      const reads = Array.from({ length: writers }, async () => {
        const res = await fetch(url, { headers: { [LOCAL_CLIENT_HEADER]: token } });
        if (res.status === 404) return;
        check(res.headers.get('content-type'), res.headers.get('content-length'), Buffer.from(await res.arrayBuffer()));
      });
      await Promise.all([...puts, ...reads]);
      const res = await fetch(url, { headers: { [LOCAL_CLIENT_HEADER]: token } });
      check(res.headers.get('content-type'), res.headers.get('content-length'), Buffer.from(await res.arrayBuffer()));
      // The listing agrees with the object that won.
      const listed = (await files.list()).objects.find((o) => o.key === 'shared.txt');
      expect(listed?.size, `round ${round}`).to.equal(Number(res.headers.get('content-length')));
      expect(listed?.etag, `round ${round}`).to.equal(res.headers.get('etag'));
    }
    expect(torn, torn.slice(0, 3).join('\n')).to.deep.equal([]);
  });
});

describe('a put cut off by its client', () => {
  it('stores nothing and is not logged as an engine failure', async () => {
    const logged: string[] = [];
    const server = await startEngineServer([bucketDefinition('files')], { log: (m) => logged.push(m) });
    try {
      const url = new URL(`${server.baseUrl}/_dev/storage/files/cut.bin`);
      await new Promise<void>((resolve) => {
        const req = httpRequest({ host: url.hostname, port: url.port, method: 'PUT', path: url.pathname, headers: { [LOCAL_CLIENT_HEADER]: server.env.FW_DEV_STORAGE_TOKEN!, 'content-length': '1000000' } });
        req.on('error', () => resolve());
        req.write(Buffer.alloc(100_000, 1), () => setTimeout(() => { req.destroy(); resolve(); }, 50));
      });
      const tmp = path.join(LocalStorageEngine.dataDir(server.rootDir), 'files', '.tmp');
      const deadline = Date.now() + 5000;
      while ((await readdir(tmp)).length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      // Let the engine finish answering the closed request.
      await new Promise((r) => setTimeout(r, 100));
      expect(await readdir(tmp)).to.deep.equal([]);
      expect((await createBucketClient('files', { env: server.env }).list()).objects).to.deep.equal([]);
      expect(logged.filter((m) => m.includes('internal error'))).to.deep.equal([]);
    } finally {
      await server.close();
    }
  });
});

describe('objects stored by the earlier two-file layout', () => {
  it('are converted at start and read back whole', async () => {
    const rootDir = await mkdtemp(path.join(tmpdir(), 'fw-storage-legacy-'));
    const objects = path.join(LocalStorageEngine.dataDir(rootDir), 'files', 'objects');
    await mkdir(objects, { recursive: true });
    const hash = createHash('sha256').update('old/note.txt', 'utf8').digest('hex');
    await writeFile(path.join(objects, hash), 'written before');
    await writeFile(path.join(objects, `${hash}.json`), JSON.stringify({ key: 'old/note.txt', size: 14, etag: '"x"', contentType: 'text/plain', lastModified: '2026-01-01T00:00:00.000Z' }));
    const server = await startEngineServer([bucketDefinition('files')], { rootDir });
    try {
      const files = createBucketClient('files', { env: server.env });
      expect((await files.list()).objects.map((o) => [o.key, o.size])).to.deep.equal([['old/note.txt', 14]]);
      const object = await files.get('old/note.txt');
      expect([object?.contentType, await text(object!.body)]).to.deep.equal(['text/plain', 'written before']);
      expect(await readdir(objects)).to.deep.equal([`${hash}.object`]);
    } finally {
      await server.close();
    }
  });
});
