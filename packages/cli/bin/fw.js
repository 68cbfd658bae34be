#!/usr/bin/env node
// The `fw` executable npm links at install time. It is committed (plain JavaScript), because the compiled CLI in
// lib/ does not exist until the packages are built, and npm links no bin whose file is missing when it installs.
//
// It runs the bundled CLI (lib/bundle/fw.js, written by scripts/bundle.mjs after `tsc -b`: a few files load faster
// than the ~170 modules of lib/), unless TypeScript has compiled lib/ again since the bundle was written (a build
// of the package without the bundle step): then lib/bin/fw.js, so a build is always served as it is.
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const compiled = new URL('../lib/bin/fw.js', import.meta.url);
const bundled = new URL('../lib/bundle/fw.js', import.meta.url);
const buildInfo = new URL('../lib/.tsbuildinfo', import.meta.url);

if (!existsSync(fileURLToPath(compiled))) {
  process.stderr.write(
    'fw: @framework/cli is not built yet (lib/bin/fw.js is missing).\n' +
      'Run `npm run build` in the repository root (or `npx tsc -b packages` for the packages only), then run fw again.\n',
  );
  process.exit(1);
}

/** Whether the bundle exists and was written after lib/'s last compilation (an installed package ships no build info). */
function bundleIsCurrent() {
  const bundle = statSync(fileURLToPath(bundled), { throwIfNoEntry: false });
  if (!bundle) return false;
  const info = statSync(fileURLToPath(buildInfo), { throwIfNoEntry: false });
  return !info || info.mtimeMs <= bundle.mtimeMs;
}

await import((bundleIsCurrent() ? bundled : compiled).href);
