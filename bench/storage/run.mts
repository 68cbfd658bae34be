/**
 * The cost of verification: presigned POST uploads and presigned downloads against the local storage engine of
 * `fw dev` (which checks signature, expiry, key, size range and content type, writes to a temp file and renames) and,
 * as the anchor in the same run, against s3rver (the common local S3 stand-in, which checks none of that), both over
 * loopback HTTP with the same client code. Blocks of both alternate so drift on a shared machine hits both; each figure
 * is the median of per-block means, and the ratio is engine / s3rver (goal: within 2x).
 *
 * Run: npx projen bench:storage
 */
import { bucketEnv, ENV } from '@framework/core/names';
import { createBucketClient, S3BucketClient, type BucketClient, type PresignedUpload } from '@framework/storage';
import { LocalStorageEngine } from '@framework/storage/local';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';

const ROUNDS = 12;
const PER_BLOCK = 20;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

async function block(fn: (i: number) => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < PER_BLOCK; i++) await fn(i);
  return Number(process.hrtime.bigint() - start) / 1e6 / PER_BLOCK;
}

async function post(upload: PresignedUpload, bytes: Buffer): Promise<void> {
  const form = new FormData();
  for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
  form.append('file', new Blob([bytes], { type: 'application/octet-stream' }), 'f');
  const res = await fetch(upload.url, { method: 'POST', body: form });
  await res.arrayBuffer();
  if (res.status !== 204) throw new Error(`upload answered ${res.status}`);
}

async function get(url: string): Promise<void> {
  const res = await fetch(url);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`download answered ${res.status}`);
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fw-bench-storage-'));
  const bucket = { id: 'bench', cdn: false, lifecycle: [], corsOrigins: [], maxUploadBytes: 1024 * 1024, versioned: false, notifications: [], variables: bucketEnv('bench') };
  let base = '';
  const engine = await LocalStorageEngine.start({ rootDir: dir, buckets: [bucket], baseUrl: () => base, log: () => undefined });
  const server = createServer((req, res) => {
    void engine.handle({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: req }).then((out) => {
      res.writeHead(out.status, out.headers);
      if (out.body instanceof Readable) out.body.pipe(res);
      else res.end(out.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const local: BucketClient = createBucketClient('bench', { env: { [ENV.devEndpoint]: base, ...engine.env() } });

  const s3rver = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: path.join(dir, 's3rver'), configureBuckets: [{ name: 'bench', configs: [] }] });
  const address = (await s3rver.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  const s3Config = { endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' } as const;
  const remote: BucketClient = new S3BucketClient({ id: 'bench', bucketName: 'bench', publicUrl: `${endpoint}/bench`, maxUploadBytes: 1024 * 1024, region: 'us-east-1' }, s3Config);

  try {
    for (const size of [1024, 256 * 1024]) {
      const bytes = Buffer.alloc(size, 7);
      const label = size >= 1024 * 1024 ? `${size / 1024 / 1024} MiB` : `${size / 1024} KiB`;
      const presignAll = (client: BucketClient, round: number) =>
        Promise.all(Array.from({ length: PER_BLOCK }, (_, i) => client.presignUpload({ key: `u/${size}/${round}/${i}`, expiresIn: 600 })));
      const up = { engine: [] as number[], s3rver: [] as number[] };
      const down = { engine: [] as number[], s3rver: [] as number[] };
      for (let round = 0; round < ROUNDS; round++) {
        // Presigning is outside the timed part: the figure is the upload and the download themselves.
        const [a, b] = [await presignAll(local, round), await presignAll(remote, round)];
        up.engine.push(await block((i) => post(a[i]!, bytes)));
        up.s3rver.push(await block((i) => post(b[i]!, bytes)));
        const [da, db] = [
          await Promise.all(a.map((u) => local.presignDownload(u.key))),
          await Promise.all(b.map((u) => remote.presignDownload(u.key))),
        ];
        down.engine.push(await block((i) => get(da[i]!.url)));
        down.s3rver.push(await block((i) => get(db[i]!.url)));
      }
      const line = (what: string, m: { engine: number[]; s3rver: number[] }) =>
        console.log(`${what} ${label}: engine ${median(m.engine).toFixed(2)} ms, s3rver ${median(m.s3rver).toFixed(2)} ms, ratio ${(median(m.engine) / median(m.s3rver)).toFixed(2)}x`);
      line('presigned POST upload', up);
      line('presigned GET download', down);
    }
  } finally {
    server.close();
    await s3rver.close();
    await engine.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
