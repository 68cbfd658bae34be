import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import * as path from 'node:path';
import * as vm from 'node:vm';

/**
 * A persistent cache of V8's compiled code for the CommonJS packages a cloud command loads (aws-cdk-lib, cdk-nag,
 * constructs: about 27 MB of JavaScript in the example's `fw synth`), kept in `.fw/compile-cache` of the project.
 *
 * In a profile of the example's warm `fw synth` (its bundles kept), compiling those modules was the largest single
 * cost of the main thread (V8's parser: 0.55 s of 3.0 s), and the functions compiled lazily as the stack is built and
 * synthesized add to it. Node.js 22.1 and later have this built in (`module.enableCompileCache`), used when present.
 * On Node.js 20 the loader compiles each package file through `vm.Script` with the code kept from a previous run,
 * and at exit keeps the code of every function compiled meanwhile (`createCachedData` after the run, not after
 * compiling: the lazily compiled functions are most of the gain; a cache made at compile time saved 0.1 s, this one
 * 0.6 s of CPU).
 *
 * Only files under a `node_modules` folder are served (the project's and the framework's own code is ESM, which this
 * loader does not see). A file's entry is keyed by its path and the SHA-1 of its text (about 20 ms for all of them),
 * and V8 rejects code made by another V8 version or with other flags (the file is then compiled as usual and its
 * entry replaced). Anything the cache cannot do (a read-only project, a full disk) only costs the time it saves.
 */
export function enableCompileCache(rootDir: string): void {
  const dir = path.join(rootDir, '.fw', 'compile-cache');
  const builtIn = (Module as unknown as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  if (typeof builtIn === 'function') {
    try {
      builtIn(dir);
    } catch {
      // Not kept: the modules compile as usual.
    }
    return;
  }
  installScriptCache(path.join(dir, `node-${process.version}-${process.arch}`));
}

/**
 * The index of a store (key to byte range in the code after it). A store is one file, the index's length (4 bytes),
 * the index as JSON, then the code: replaced as a whole, so an index never points into another run's code.
 */
interface StoreIndex {
  readonly entries: Record<string, [start: number, end: number]>;
}

function load(storeFile: string): { index: StoreIndex; code: Buffer } {
  try {
    const store = fs.readFileSync(storeFile);
    const length = store.readUInt32LE(0);
    return { index: JSON.parse(store.subarray(4, 4 + length).toString('utf8')) as StoreIndex, code: store.subarray(4 + length) };
  } catch {
    return { index: { entries: {} }, code: Buffer.alloc(0) };
  }
}

let installed = false;

/** The Node.js 20 path of `enableCompileCache`: `Module.prototype._compile` through `vm.Script` with cached data. */
function installScriptCache(storeDir: string): void {
  if (installed) return;
  installed = true;
  const storeFile = path.join(storeDir, 'store.bin');
  const { index, code } = load(storeFile);
  const compiled: Array<{ key: string; script: vm.Script }> = [];
  let missed = false;
  type CompilingModule = NodeJS.Module & { _compile(content: string, filename: string): unknown };
  const prototype = (Module as unknown as { prototype: CompilingModule }).prototype;
  const original = prototype._compile;
  const inPackages = `${path.sep}node_modules${path.sep}`;
  prototype._compile = function compileWithCache(this: CompilingModule, content: string, filename: string) {
    // A hashbang is valid only at the very start of a script, which the module wrapper takes. A file that may call
    // `import()` compiles as usual: Node.js 20's loader for it (vm's USE_MAIN_CONTEXT_DEFAULT_LOADER, experimental)
    // is lost when a script comes from cached data (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING). Two files of the
    // example's 1,185 have the text (a method named `import`).
    if (!filename.includes(inPackages) || content.startsWith('#!') || content.includes('import(')) return original.call(this, content, filename);
    const key = `${filename}\0${createHash('sha1').update(content).digest('hex')}`;
    const range = index.entries[key];
    const cachedData = range ? code.subarray(range[0], range[1]) : undefined;
    // columnOffset: line 1's columns as Node.js reports them without the wrapper (call stacks kept in the assembly's metadata).
    const script = new vm.Script(Module.wrap(content), { filename, cachedData, columnOffset: -1 });
    if (!cachedData || script.cachedDataRejected) missed = true;
    compiled.push({ key, script });
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return wrapper.call(this.exports, this.exports, requireFor(this), this, filename, path.dirname(filename));
  };
  process.once('exit', () => {
    if (!missed) return;
    try {
      save(storeFile, compiled, index, code);
    } catch {
      // Not kept: the next run compiles these files again.
    }
  });
}

/** The `require` a module's code gets, as Node.js makes it (resolution from the module, the shared cache). */
function requireFor(module: NodeJS.Module): NodeJS.Require {
  const own = createRequire(module.filename);
  const require = ((id: string) => module.require(id)) as NodeJS.Require;
  require.resolve = own.resolve;
  require.cache = own.cache;
  require.main = own.main;
  require.extensions = own.extensions;
  return require;
}

/** Writes the code of every script compiled in this run (with the functions compiled while it ran), replacing the store. */
function save(storeFile: string, compiled: ReadonlyArray<{ key: string; script: vm.Script }>, previous: StoreIndex, previousCode: Buffer): void {
  const parts: Buffer[] = [];
  const entries: Record<string, [number, number]> = {};
  let offset = 0;
  const add = (key: string, data: Buffer) => {
    entries[key] = [offset, offset + data.length];
    offset += data.length;
    parts.push(data);
  };
  for (const { key, script } of compiled) add(key, script.createCachedData());
  // Files another command loaded (`--no-checks` loads no cdk-nag) keep their code; a file loaded now keeps only its new entry.
  const loaded = new Set(compiled.map(({ key }) => key.slice(0, key.indexOf('\0'))));
  for (const [key, [start, end]] of Object.entries(previous.entries)) {
    if (!loaded.has(key.slice(0, key.indexOf('\0'))) && end <= previousCode.length) add(key, previousCode.subarray(start, end));
  }
  const index = Buffer.from(JSON.stringify({ entries } satisfies StoreIndex), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(index.length, 0);
  fs.mkdirSync(path.dirname(storeFile), { recursive: true });
  // Written beside and renamed into place: a run reading the store meanwhile sees the old one or the new one.
  const temporary = `${storeFile}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, Buffer.concat([length, index, ...parts]));
  fs.renameSync(temporary, storeFile);
}
