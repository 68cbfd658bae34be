import { readdir } from 'node:fs/promises';
import * as path from 'node:path';
import { LocalStorageEngine } from '../../src/local/index.js';

/** Files the engine holds for a bucket: committed objects (data + metadata) and in-flight temp files. */
export async function bucketFiles(rootDir: string, bucketId: string): Promise<{ objects: string[]; temp: string[] }> {
  const dir = path.join(LocalStorageEngine.dataDir(rootDir), bucketId);
  return { objects: await readdir(path.join(dir, 'objects')), temp: await readdir(path.join(dir, '.tmp')) };
}

export async function waitFor<T>(probe: () => T | undefined, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function text(stream: AsyncIterable<unknown>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}
