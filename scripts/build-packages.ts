/**
 * `tsc -b packages` with a line per package it builds, for `npm run example`: the first build of a fresh clone takes
 * a minute or two, and a silent terminal looks hung. Packages already up to date are not mentioned; compiler errors
 * are printed as tsc prints them, and the exit code is tsc's.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as path from 'node:path';
import * as readline from 'node:readline';

const started = Date.now();
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const tsc = require.resolve('typescript/bin/tsc');
const child = spawn(process.execPath, [tsc, '-b', 'packages', '--verbose'], { stdio: ['ignore', 'pipe', 'inherit'] });

// --verbose lines start with a time stamp ("9:39:41 PM - Building project '/…/packages/core/tsconfig.json'...").
const VERBOSE = /^\d{1,2}:\d{2}:\d{2}( [AP]M)? - /;
const BUILDING = /Building project '(.+)[\\/]tsconfig\.json'/;
let current: { name: string; since: number } | undefined;
let built = 0;
let total = 0;
const finish = () => {
  if (current) process.stdout.write(`[build] ${current.name}: ${seconds(current.since)}\n`);
  current = undefined;
};

readline.createInterface({ input: child.stdout! }).on('line', (line) => {
  if (!VERBOSE.test(line)) {
    // The project list of --verbose ("    * packages/core/tsconfig.json"), blank lines, or compiler output.
    if (/^\s+\* packages\/[^/]+\/tsconfig\.json$/.test(line)) total++;
    else if (/^\s+\* /.test(line)) return;
    else if (line.trim()) process.stdout.write(`${line}\n`);
    return;
  }
  const building = BUILDING.exec(line);
  if (!building) return;
  finish();
  built++;
  current = { name: `@framework/${path.basename(building[1]!)}`, since: Date.now() };
  if (built === 1) process.stdout.write('[build] compiling the packages with TypeScript (the first time takes a minute or two; later runs only rebuild what changed)\n');
  process.stdout.write(`[build] ${current.name} (${built} of at most ${total})...\n`);
});

child.on('close', (code) => {
  finish();
  if (code === 0) process.stdout.write(built ? `[build] packages built in ${seconds(started)}\n` : '[build] packages up to date\n');
  // The bundled CLI the `fw` executable runs (a quarter of a second; build:packages does the same).
  const bundled = code === 0 ? spawnSync(process.execPath, [path.join('packages', 'cli', 'scripts', 'bundle.mjs')], { stdio: 'inherit' }).status : code;
  process.exitCode = bundled ?? 1;
});
