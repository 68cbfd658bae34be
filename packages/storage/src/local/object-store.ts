import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { appendFile, mkdir, open, readFile, readdir, rename, rm, unlink, type FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';

/** What the local engine keeps about an object (stored in the object's file, after its bytes). */
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

/** An object opened for reading: its metadata and bytes, both from the same file (one version, never torn). */
export interface OpenedObject {
  readonly meta: LocalObjectMeta;
  readonly body: Readable;
}

/** Bytes received into a temp file, not yet an object. */
export interface ReceivedBytes {
  readonly tempFile: string;
  readonly size: number;
  /** Quoted MD5 hex. */
  readonly etag: string;
}

/** Marks the end of an object file: `<bytes><metadata JSON><uint32 BE JSON length><MAGIC>`. */
const MAGIC = Buffer.from('FWO1', 'ascii');
const TRAILER_BYTES = 4 + MAGIC.length;
const OBJECT_SUFFIX = '.object';

/** Why an upload was refused while its bytes arrived. */
export class ObjectTooLargeError extends Error {
  constructor(public readonly maxBytes: number) {
    super(`more than ${maxBytes} bytes`);
  }
}

/**
 * One bucket on disk: `<dir>/objects/<sha256 of key>.object` holds an object's bytes followed by its metadata, so a
 * version is one file and is committed by one rename: a reader sees one writer's metadata with that writer's bytes,
 * and concurrent writers of a key end as S3 ends them, last writer wins, whole. Files are named by hash because S3
 * keys are not paths (`a` and `a/b` can both exist) and no key can reach outside the folder. Bytes are streamed to
 * `<dir>/.tmp/` first and renamed into place only when complete, so a rejected or interrupted upload leaves nothing.
 * The key index (for listing) lives in memory, rebuilt from the files on open; reads always go to the file.
 */
export class LocalObjectStore {
  private readonly index = new Map<string, LocalObjectMeta>();
  /** Per key, the last commit or delete in flight: they apply in call order, so the index matches the files. */
  private readonly writes = new Map<string, Promise<unknown>>();
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
    await store.upgradeLegacyLayout();
    for (const name of await readdir(store.objectsDir)) {
      if (!name.endsWith(OBJECT_SUFFIX)) continue;
      const file = path.join(store.objectsDir, name);
      const handle = await open(file, 'r').catch(() => undefined);
      if (!handle) continue;
      try {
        const meta = await readMeta(handle);
        if (meta && store.fileOf(meta.key) === file) store.index.set(meta.key, meta);
      } finally {
        await handle.close();
      }
    }
    return store;
  }

  /** A fresh path under the bucket's temp folder for an incoming object. */
  tempFile(): string {
    return path.join(this.tmpDir, randomUUID());
  }

  /**
   * Streams `body` into a temp file, counting and hashing. Past `maxBytes` it stops writing, drains the rest (so the
   * client reads the answer instead of a reset) and rejects with `ObjectTooLargeError`; on any failure the temp file
   * is removed.
   */
  receive(body: Readable, maxBytes = Number.POSITIVE_INFINITY): Promise<ReceivedBytes> {
    const tempFile = this.tempFile();
    const out = createWriteStream(tempFile);
    const md5 = createHash('md5');
    let size = 0;
    let tooLarge = false;
    const outDone = finished(out).then(
      () => undefined,
      (error: unknown) => error,
    );
    return new Promise<ReceivedBytes>((resolve, reject) => {
      const fail = (error: unknown) => void this.discard(tempFile).finally(() => reject(error));
      body.on('data', (chunk: Buffer) => {
        if (tooLarge) return;
        size += chunk.length;
        if (size > maxBytes) {
          tooLarge = true;
          out.destroy();
          body.resume();
          return;
        }
        md5.update(chunk);
        if (!out.write(chunk)) {
          body.pause();
          out.once('drain', () => body.resume());
        }
      });
      body.on('error', (error) => {
        out.destroy();
        fail(error);
      });
      body.on('end', () => {
        if (!tooLarge) out.end();
        void outDone.then((writeError) => {
          if (tooLarge) fail(new ObjectTooLargeError(maxBytes));
          else if (writeError !== undefined) fail(writeError);
          else resolve({ tempFile, size, etag: `"${md5.digest('hex')}"` });
        });
      });
    });
  }

  /**
   * Makes received bytes the object `meta.key`: appends the metadata to the temp file, then renames it over the
   * previous version (atomic: readers have either file, whole). Commits and deletes of one key apply in call order.
   */
  async commit(tempFile: string, meta: LocalObjectMeta): Promise<void> {
    const json = Buffer.from(JSON.stringify(meta), 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32BE(json.length);
    try {
      await appendFile(tempFile, Buffer.concat([json, length, MAGIC]));
    } catch (error) {
      await this.discard(tempFile);
      throw error;
    }
    await this.serialized(meta.key, async () => {
      await rename(tempFile, this.fileOf(meta.key));
      this.index.set(meta.key, meta);
    });
  }

  /** Writes a whole object from memory or a stream (the function's `put`). */
  async write(meta: Omit<LocalObjectMeta, 'size' | 'etag' | 'lastModified'>, body: Uint8Array | Readable): Promise<LocalObjectMeta> {
    const received = await this.receive(body instanceof Readable ? body : Readable.from([Buffer.from(body)]));
    const full: LocalObjectMeta = { ...meta, size: received.size, etag: received.etag, lastModified: new Date().toISOString() };
    await this.commit(received.tempFile, full);
    return full;
  }

  async discard(tempFile: string): Promise<void> {
    await unlink(tempFile).catch(() => undefined);
  }

  /** The object's metadata as listed (in memory; `openObject` reads the file itself). */
  meta(key: string): LocalObjectMeta | undefined {
    return this.index.get(key);
  }

  /**
   * Opens the current version of an object: metadata and bytes come from the same open file, so a commit that
   * lands meanwhile cannot mix versions. `withBody: false` reads the metadata only. Undefined when there is none.
   */
  async openObject(key: string, withBody = true): Promise<OpenedObject | undefined> {
    let handle: FileHandle;
    try {
      handle = await open(this.fileOf(key), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    let meta: LocalObjectMeta | undefined;
    try {
      meta = await readMeta(handle);
    } catch (error) {
      await handle.close();
      throw error;
    }
    if (!meta || meta.key !== key) {
      await handle.close();
      return undefined;
    }
    if (!withBody || meta.size === 0) {
      await handle.close();
      return { meta, body: Readable.from([]) };
    }
    return { meta, body: handle.createReadStream({ start: 0, end: meta.size - 1, autoClose: true }) };
  }

  async delete(key: string): Promise<void> {
    await this.serialized(key, async () => {
      if (!this.index.delete(key)) return;
      await rm(this.fileOf(key), { force: true });
    });
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

  private async serialized(key: string, step: () => Promise<void>): Promise<void> {
    const previous = this.writes.get(key) ?? Promise.resolve();
    const current = previous.then(step, step);
    this.writes.set(key, current);
    try {
      await current;
    } finally {
      if (this.writes.get(key) === current) this.writes.delete(key);
    }
  }

  /** Objects written by an earlier version (bytes in `<hash>`, metadata in `<hash>.json`) become one file each. */
  private async upgradeLegacyLayout(): Promise<void> {
    for (const name of await readdir(this.objectsDir)) {
      if (!name.endsWith('.json')) continue;
      const metaFile = path.join(this.objectsDir, name);
      const dataFile = metaFile.slice(0, -'.json'.length);
      try {
        const meta = JSON.parse(await readFile(metaFile, 'utf8')) as LocalObjectMeta;
        if (typeof meta.key === 'string' && this.fileOf(meta.key) === dataFile + OBJECT_SUFFIX) {
          const temp = this.tempFile();
          await finished(createReadStream(dataFile).pipe(createWriteStream(temp)));
          await this.commit(temp, meta);
        }
      } catch {
        // A half-written pair (crash between writes) was never listed; it is dropped.
      }
      await rm(metaFile, { force: true });
      await rm(dataFile, { force: true });
    }
  }

  private fileOf(key: string): string {
    return path.join(this.objectsDir, createHash('sha256').update(key, 'utf8').digest('hex') + OBJECT_SUFFIX);
  }
}

/** The metadata at the end of an object file, or undefined when the file is not a complete object. */
async function readMeta(handle: FileHandle): Promise<LocalObjectMeta | undefined> {
  const { size } = await handle.stat();
  if (size < TRAILER_BYTES) return undefined;
  const trailer = Buffer.alloc(TRAILER_BYTES);
  await handle.read(trailer, 0, TRAILER_BYTES, size - TRAILER_BYTES);
  if (!trailer.subarray(4).equals(MAGIC)) return undefined;
  const length = trailer.readUInt32BE(0);
  const start = size - TRAILER_BYTES - length;
  if (start < 0) return undefined;
  const json = Buffer.alloc(length);
  await handle.read(json, 0, length, start);
  try {
    const meta = JSON.parse(json.toString('utf8')) as LocalObjectMeta;
    return typeof meta.key === 'string' && meta.size === start ? meta : undefined;
  } catch {
    return undefined;
  }
}

function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
