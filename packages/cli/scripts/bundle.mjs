#!/usr/bin/env node
// Bundles the compiled CLI (lib/, written by `tsc -b`) into lib/bundle/: the entry lib/bin/fw.js and every module of
// this package it imports, in a few files instead of about 170 (one per command it loads on use, esbuild's chunks for
// what they share). The `fw` executable (bin/fw.js) runs it when it is at least as new as lib/.
//
// Why: Node.js 20 loads each ES module on its own (resolve, read through the thread pool, compile, link), and the
// CLI's modules were about 40 ms of the 0.5 s from `fw dev` to its first answer on the 2-core bench host.
//
// What stays outside: every package (bare specifiers: @framework/*, Fastify, esbuild...). Handlers, the app's
// fw.config.ts and the engines import @framework/core and the others from node_modules; one copy of each keeps their
// classes and module state shared. Worker threads and child processes (function threads, PGlite, the type checker)
// run lib/'s own files, which `package-files.ts` finds from the package root wherever the calling module runs.
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const lib = path.join(root, 'lib');
const outdir = path.join(lib, 'bundle');
const entry = path.join(lib, 'bin', 'fw.js');

if (!fs.existsSync(entry)) {
  process.stderr.write(`bundle: ${path.relative(process.cwd(), entry)} is missing: build the packages first (tsc -b packages)\n`);
  process.exit(1);
}

// Written to a fresh folder, then the old bundle removed and the new one renamed into place: a run of `fw` meanwhile
// sees a whole bundle or none (then the launcher runs lib/bin/fw.js), never half of one.
const staging = `${outdir}.tmp-${process.pid}`;
fs.rmSync(staging, { recursive: true, force: true });
const keepPackagesExternal = {
  name: 'keep-packages-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => ({ path: args.path, external: true }));
  },
};
await esbuild.build({
  entryPoints: [entry],
  outdir: staging,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  plugins: [keepPackagesExternal],
  logLevel: 'warning',
});
fs.rmSync(outdir, { recursive: true, force: true });
fs.renameSync(staging, outdir);
