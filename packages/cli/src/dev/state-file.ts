import * as fs from 'node:fs';
import * as path from 'node:path';

/** `.fw/dev/state.json` while `fw dev` runs: how other commands (`fw migrate`) find its engines without asking the user for ports. */
export interface DevState {
  readonly pid: number;
  readonly url: string;
  readonly stage: string;
  /** Every variable injected into functions, with its local value. */
  readonly env: Readonly<Record<string, string>>;
}

export function stateFilePath(dataDir: string): string {
  return path.join(dataDir, 'dev', 'state.json');
}

export function writeStateFile(dataDir: string, state: DevState): void {
  const file = stateFilePath(dataDir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`);
}

/** Removes the file if it is this process's (a second `fw dev` must not delete the first one's). */
export function removeStateFile(dataDir: string): void {
  const file = stateFilePath(dataDir);
  try {
    const state = JSON.parse(fs.readFileSync(file, 'utf8')) as DevState;
    if (state.pid === process.pid) fs.rmSync(file);
  } catch {
    // already gone
  }
}

/** The state of a running `fw dev` for this project, or undefined (no file, or its process is gone). */
export function readStateFile(dataDir: string): DevState | undefined {
  try {
    const state = JSON.parse(fs.readFileSync(stateFilePath(dataDir), 'utf8')) as DevState;
    process.kill(state.pid, 0);
    return state;
  } catch {
    return undefined;
  }
}
