import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import type * as TypeScript from 'typescript';

/** What the dev server gives the type-check thread. */
export interface TypeCheckWorkerData {
  /** The project's tsconfig.json. */
  readonly tsconfig: string;
  /** The project's own `typescript` module (its version is the one its editor and CI use). */
  readonly typescript: string;
  /** Paths in messages are relative to it. */
  readonly rootDir: string;
}

/** One finished check: its diagnostics, formatted as tsc prints them. */
export interface TypeCheckResult {
  readonly errorCount: number;
  readonly diagnostics: readonly string[];
}

const data = workerData as TypeCheckWorkerData;
const ts = createRequire(import.meta.url)(data.typescript) as typeof TypeScript;
const formatHost: TypeScript.FormatDiagnosticsHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => data.rootDir, getNewLine: () => '\n' };
let diagnostics: string[] = [];

// tsc --noEmit --watch, in a thread: it never blocks the requests of the main thread and ends with the process.
const host = ts.createWatchCompilerHost(
  data.tsconfig,
  { noEmit: true },
  ts.sys,
  ts.createSemanticDiagnosticsBuilderProgram,
  (diagnostic) => diagnostics.push(ts.formatDiagnostic(diagnostic, formatHost).trimEnd()),
  (_status, _newLine, _options, errorCount) => {
    // Only the end of a check carries the error count.
    if (errorCount === undefined) return;
    const result: TypeCheckResult = { errorCount, diagnostics };
    parentPort!.postMessage(result);
    diagnostics = [];
  },
);
ts.createWatchProgram(host);
