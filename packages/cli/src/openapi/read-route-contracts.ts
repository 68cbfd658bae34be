import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { moduleLoadEnvironment, type AppDefinition } from '@framework/core';
import { OpenApiError } from '../errors.js';
import { compiledEntry } from '../package-files.js';
import type { RouteContractResult } from './route-contract.js';

/** The compiled reader (from sources, the bundle or `lib/`: always `lib/`'s file, as for fw dev's function worker). */
const readerEntry = (): string => fileURLToPath(compiledEntry('openapi/contract-reader-process.js'));
const READ_TIMEOUT_MS = 120_000;

/**
 * What every route declares, read by importing its compiled bundle in ONE child process with a neutral environment
 * (the app's fixed variables, no credentials, no instance metadata), as infra reads the declared scopes at synth:
 * schemas and scopes may come from shared modules and constants, which only running the module sees. A module whose
 * top level fails is reported for that route; the others are still read.
 *
 * @param bundles route key → absolute path of the route's compiled bundle (under the project, so its packages resolve)
 */
export async function readRouteContracts(app: AppDefinition, bundles: Readonly<Record<string, string>>): Promise<Record<string, RouteContractResult>> {
  if (Object.keys(bundles).length === 0) return {};
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-openapi-'));
  const resultFile = path.join(tmp, 'result.json');
  try {
    const env = moduleLoadEnvironment(app, tmp);
    const { code, stderr } = await run(app.rootDir, env, JSON.stringify({ rootDir: app.rootDir, bundles, resultFile }));
    if (!fs.existsSync(resultFile)) {
      throw new OpenApiError(
        'FW_ERR_OPENAPI_ROUTE_LOAD',
        `reading the routes' schemas failed (the process ${code}):\n${stderr.trim().slice(0, 2000)}\nA route module must load without cloud access: move cloud calls from the module top level into the handler.`,
      );
    }
    return JSON.parse(fs.readFileSync(resultFile, 'utf8')) as Record<string, RouteContractResult>;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** Runs the reader without blocking the caller's event loop (fw dev keeps serving meanwhile). */
function run(cwd: string, env: Record<string, string>, input: string): Promise<{ code: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--enable-source-maps', readerEntry()], { cwd, env, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 64 * 1024) stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), READ_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: `could not run: ${error.message}`, stderr });
    });
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ code: signal ? `was ended by ${signal}${signal === 'SIGKILL' ? ` after ${READ_TIMEOUT_MS / 1000} s` : ''}` : `exited with ${status}`, stderr });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}
