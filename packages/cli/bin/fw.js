#!/usr/bin/env node
// The `fw` executable npm links at install time. It is committed (plain JavaScript), because the compiled CLI in
// lib/ does not exist until the packages are built, and npm links no bin whose file is missing when it installs.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../lib/bin/fw.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write(
    'fw: @framework/cli is not built yet (lib/bin/fw.js is missing).\n' +
      'Run `npm run build` in the repository root (or `npx tsc -b packages` for the packages only), then run fw again.\n',
  );
  process.exit(1);
}
await import(entry.href);
