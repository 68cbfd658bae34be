import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, unlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { Readable } from 'node:stream';

/** What the local engine keeps about an object (the `.json` beside its bytes). */
export interface LocalObjectMeta {
  readonly key: string;
  readonly size: number;
  /** Quoted MD5 hex, as S3 gives a single-part object. */
  readonly etag: string;
  readonly contentType: string;
  /** ISO 8601. */
  readonly lastModified: string;
  readonly cacheControl?: string;
}

export interface LocalListResult {
  readonly objects: readonly LocalObjectMeta[];
  /** The key to continue after; undefined on the last page. */
  readonly nextAfter?: string;
}

/**
 * One bucket on disk: `<dir>/objects/<sha256 of key>` holds the bytes and `<sha256>.json` the metadata. Files are
 * named by hash because S3 keys are not paths: `a` and `a/b` can both exist, and no key can reach outside the folder.
 * Writes go to `<dir>/.tmp/` first and are renamed into place only when complete, so a rejected or interrupted upload
 * leaves nothing behind. The key index lives in memory, rebuilt from the `.json` files on open (objects survive restarts).
 */
export class LocalObjectStore {
  private readonly index = new Map<string, LocalObjectMeta>();
  private readonly objectsDir: string;
  private readonly tmpDir: string;

  private constructor(public readonly dir: string) {
    this.objectsDir = path.join(dir, 'objects');
    this.tmpDir = path.join(dir, '.tmp');
  }

  static async open(dir: string): Promise<LocalObjectStore> {
    const store = new LocalObjectStore(dir);
    // Leftovers of uploads cut off by a crash are never objects.
    await rm(store.tmpDir, { recursive: true, force: true });
    await mkdir(store.tmpDir, { recursive: true });
    await mkdir(store.objectsDir, { recursive: true });
    for (const name of await readdir(store.objectsDir)) {
      if (!name.endsWith('.json')) continue;
      try {
        const meta = JSON.parse(await readFile(path.join(store.objectsDir, name), 'utf8')) as LocalObjectMeta;
        if (typeof meta.key === 'string' && store.fileOf(meta.key) + '.json' === path.join(store.objectsDir, name)) store.index.set(meta.key, meta);
      } catch {
        // A half-written metadata file (crash between writes) is ignored; its object is not listed.
      }
    }
    return store;
  }

  /** A fresh path under the bucket's temp folder for an incoming object. */
  tempFile(): string {
    return path.join(this.tmpDir, randomUUID());
  }

  /** Moves a complete temp file into place and records its metadata. */
  async commit(tempFile: string, meta: LocalObjectMeta): Promise<void> {
    const file = this.fileOf(meta.key);
    const metaTemp = this.tempFile();
    await writeFile(metaTemp, JSON.stringify(meta));
    await rename(tempFile, file);
    await rename(metaTemp, file + '.json');
    this.index.set(meta.key, meta);
  }

  /** Writes a whole object from memory (the function's `put`). */
  async write(meta: Omit<LocalObjectMeta, 'size' | 'etag' | 'lastModified'>, bytes: Uint8Array): Promise<LocalObjectMeta> {
    const temp = this.tempFile();
    await writeFile(temp, bytes);
    const full: LocalObjectMeta = { ...meta, size: bytes.byteLength, etag: `"${createHash('md5').update(bytes).digest('hex')}"`, lastModified: new Date().toISOString() };
    await this.commit(temp, full);
    return full;
  }

  async discard(tempFile: string): Promise<void> {
    await unlink(tempFile).catch(() => undefined);
  }

  meta(key: string): LocalObjectMeta | undefined {
    return this.index.get(key);
  }

  read(key: string): Readable {
    return createReadStream(this.fileOf(key));
  }

  async delete(key: string): Promise<void> {
    if (!this.index.delete(key)) return;
    const file = this.fileOf(key);
    await rm(file + '.json', { force: true });
    await rm(file, { force: true });
  }

  /** Keys in ascending UTF-8 byte order (S3's order), after `after`, at most `max`. */
  list(prefix: string, max: number, after?: string): LocalListResult {
    const keys = [...this.index.keys()].filter((k) => k.startsWith(prefix) && (after === undefined || compareKeys(k, after) > 0)).sort(compareKeys);
    const page = keys.slice(0, max);
    return { objects: page.map((k) => this.index.get(k)!), nextAfter: keys.length > max ? page[page.length - 1] : undefined };
  }

  /** How many files are in the temp folder (tests use it to show a rejected upload left nothing). */
  async pendingTempFiles(): Promise<number> {
    return (await readdir(this.tmpDir)).length;
  }

  private fileOf(key: string): string {
    return path.join(this.objectsDir, createHash('sha256').update(key, 'utf8').digest('hex'));
  }
}

function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
