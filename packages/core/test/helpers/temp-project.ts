import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AppOptions } from '../../src/index.js';

/** A project folder in the OS temp dir holding `files` (project-relative paths; every file exports `main`). */
export class TempProject {
  public readonly rootDir: string;

  constructor(files: readonly string[] = []) {
    this.rootDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-core-'));
    for (const file of files) this.add(file);
  }

  add(file: string, content = 'export const main = () => undefined;\n'): this {
    const absolute = path.join(this.rootDir, file);
    fs.mkdirSync(path.dirname(absolute), { recursive: true });
    fs.writeFileSync(absolute, content);
    return this;
  }

  remove(): void {
    fs.rmSync(this.rootDir, { recursive: true, force: true });
  }
}

/** A valid config for `rootDir`, stage dev; `extra` replaces top-level options. */
export function validOptions(rootDir: string, extra: Partial<Record<keyof AppOptions, unknown>> = {}): AppOptions {
  return {
    rootDir,
    stage: 'dev',
    base: { name: 'acme', region: 'eu-west-1' },
    security: { scopes: { 'tasks:read': 'Read tasks' }, appClients: { web: { scopes: ['tasks:read'], flows: ['authorization_code'] } } },
    envs: { dev: { preset: 'free' }, prod: { preset: 'medium' } },
    ...extra,
  } as AppOptions;
}

/** Runs `fn` and returns the error it throws (fails when it returns). */
export function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw, but it returned');
}
