/**
 * `npm test --workspaces --if-present` (the packages' suites, one after another, as npm runs them), with a summary at
 * the end: each package's result and time, and the failures of those that failed, repeated.
 *
 * Why: npm runs every workspace's suite even after one fails, so the failure of an early package scrolls thousands
 * of lines away, and a CI log that keeps only its tail showed every later package passing and then "Task test
 * failed", with nothing saying which test failed. The summary repeats what mocha printed for each failed package
 * (from its "N failing" line on), or the last lines it printed when it ended without that line (a crash, a hang
 * killed by a timeout). Output is passed through as it comes; the exit code is npm's.
 */
import { spawn } from 'node:child_process';
import * as readline from 'node:readline';

/** How many lines of a package's failures the summary repeats (the rest is in the log above it). */
const FAILURE_LINES = 150;
/** How many of a package's last lines the summary repeats when it failed without mocha's "N failing" line. */
const TAIL_LINES = 40;

interface PackageRun {
  readonly name: string;
  readonly started: number;
  ended?: number;
  /** Lines from mocha's "N failing" on. */
  readonly failures: string[];
  /** The package's last lines, whatever they are. */
  readonly tail: string[];
  failing?: number;
  passing?: number;
  /** npm reported its script failed. */
  failed: boolean;
}

// npm announces each workspace's script with "> @framework/cli@0.1.0 test" and, when it fails, ends with
// "npm error workspace @framework/cli@0.1.0" (npm 9+; older ones "npm ERR! workspace").
const HEADER = /^> (@?[^@\s]+)@\S+ test$/;
const NPM_FAILED = /^npm (?:error|ERR!) workspace (@?[^@\s]+)@/;
// eslint-disable-next-line no-control-regex
const COLOR = /\x1b\[[0-9;]*m/g;

const runs: PackageRun[] = [];
const byName = new Map<string, PackageRun>();
let current: PackageRun | undefined;

function take(raw: string): void {
  const line = raw.replace(COLOR, '');
  const header = HEADER.exec(line);
  if (header) {
    if (current) current.ended = Date.now();
    current = { name: header[1]!, started: Date.now(), failures: [], tail: [], failed: false };
    runs.push(current);
    byName.set(current.name, current);
    return;
  }
  const npmFailed = NPM_FAILED.exec(line);
  if (npmFailed) {
    const run = byName.get(npmFailed[1]!);
    if (run) run.failed = true;
    return;
  }
  // npm's own lines (its warnings, and the errors it prints at the very end) belong to no package's output.
  if (!current || /^npm (?:error|warn|ERR!|WARN)/.test(line)) return;
  current.tail.push(line);
  if (current.tail.length > TAIL_LINES) current.tail.shift();
  const passing = /^\s*(\d+) passing\b/.exec(line);
  if (passing) current.passing = Number(passing[1]);
  const failing = /^\s*(\d+) failing\b/.exec(line);
  if (failing) current.failing = Number(failing[1]);
  if ((failing || current.failures.length > 0) && current.failures.length < FAILURE_LINES) current.failures.push(line);
}

function relay(stream: NodeJS.ReadableStream, target: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    readline
      .createInterface({ input: stream, crlfDelay: Infinity })
      .on('line', (line) => {
        target.write(`${line}\n`);
        take(line);
      })
      .on('close', resolve);
  });
}

async function main(): Promise<void> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const child = spawn(npm, ['test', '--workspaces', '--if-present', ...process.argv.slice(2)], { stdio: ['inherit', 'pipe', 'pipe'] });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  const relayed = Promise.all([relay(child.stdout!, process.stdout), relay(child.stderr!, process.stderr)]);
  const code = await new Promise<number>((resolve) => child.on('close', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))));
  await relayed;
  if (current) current.ended ??= Date.now();

  const out: string[] = ['', '[test] the packages, in the order they ran:'];
  for (const run of runs) {
    const seconds = (((run.ended ?? Date.now()) - run.started) / 1000).toFixed(0);
    const failed = run.failed || (run.failing ?? 0) > 0;
    const counts = [run.passing !== undefined ? `${run.passing} passing` : undefined, run.failing !== undefined ? `${run.failing} failing` : undefined].filter(Boolean).join(', ');
    out.push(`[test]   ${failed ? 'FAILED' : 'ok    '} ${run.name} (${counts || 'no mocha summary'}, ${seconds} s)`);
  }
  for (const run of runs.filter((r) => r.failed || (r.failing ?? 0) > 0)) {
    out.push('', `[test] ${run.name} failed; ${run.failures.length > 0 ? "mocha's failures" : 'its last lines (it printed no "failing" line)'}:`);
    const lines = run.failures.length > 0 ? run.failures : run.tail;
    while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
    for (const line of lines) out.push(`  ${line}`);
  }
  out.push('', code === 0 ? '[test] every package passed' : `[test] npm test --workspaces ended with exit code ${code}`);
  process.stdout.write(`${out.join('\n')}\n`);
  process.exitCode = code;
}

void main();
