import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { compiledEntry } from '../../package-files.js';
import type { DevLogger } from '../engines/engine.js';
import { workerExecArgv } from '../functions/function-host.js';
import type { TypeCheckResult, TypeCheckWorkerData } from './type-check-worker.js';

/** The compiled thread entry (from sources, the bundle or `lib/`: always `lib/`'s file). */
const workerEntry = (): URL => compiledEntry('dev/typecheck/type-check-worker.js');

/**
 * `fw dev` serves handlers compiled by esbuild, which strips types without checking them (as users of esbuild-based
 * tools expect); this runs the TypeScript checker of the project in watch mode beside it and prints type errors in
 * the terminal. Requests never wait for it. `fw dev --no-typecheck` turns it off.
 */
export class BackgroundTypeCheck {
  private lastErrorCount: number | undefined;

  private constructor(
    private readonly worker: Worker,
    private readonly log: DevLogger,
  ) {
    worker.on('message', (result: TypeCheckResult) => this.report(result));
    worker.on('error', (error) => log.warn(`typecheck: the type checker stopped: ${error.message}`));
    worker.unref();
  }

  /** Starts checking, or says why it does not (no tsconfig.json, typescript not installed) and returns undefined. */
  static start(rootDir: string, log: DevLogger): BackgroundTypeCheck | undefined {
    const tsconfig = path.join(rootDir, 'tsconfig.json');
    if (!fs.existsSync(tsconfig)) {
      log.info('typecheck: skipped (no tsconfig.json in the project)');
      return undefined;
    }
    let typescript: string;
    try {
      typescript = createRequire(path.join(rootDir, 'package.json')).resolve('typescript');
    } catch {
      log.info('typecheck: skipped (typescript is not installed in the project: npm install --save-dev typescript)');
      return undefined;
    }
    const workerData: TypeCheckWorkerData = { tsconfig, typescript, rootDir };
    return new BackgroundTypeCheck(new Worker(workerEntry(), { workerData, execArgv: workerExecArgv() }), log);
  }

  private report(result: TypeCheckResult): void {
    const previous = this.lastErrorCount;
    this.lastErrorCount = result.errorCount;
    if (result.errorCount > 0) {
      this.log.warn(`typecheck: ${result.errorCount} type error${result.errorCount > 1 ? 's' : ''} (requests are still served):\n${result.diagnostics.join('\n')}`);
    } else if (previous !== 0) {
      this.log.info('typecheck: no type errors');
    }
  }

  stop(): Promise<number> {
    return this.worker.terminate();
  }
}
