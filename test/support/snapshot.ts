import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'chai';

/**
 * Compares a value with its committed snapshot under `test/__snapshots__/<name>.json`. Locally a missing snapshot is
 * written (review it before committing); in CI (`CI` set) it fails instead, so a snapshot never committed cannot
 * pass unseen. `UPDATE_SNAPSHOTS=1` rewrites them all after an intended change.
 */
export function expectSnapshot(name: string, value: unknown, directory = path.join(__dirname, '..', '__snapshots__')): void {
  const file = path.join(directory, `${name}.json`);
  const actual = `${JSON.stringify(value, null, 2)}\n`;
  const missing = !fs.existsSync(file);
  if (missing && isCi()) {
    expect.fail(`snapshot ${name} is missing (${path.basename(file)}): run the test without CI set, review the written snapshot and commit it`);
  }
  if (missing || process.env.UPDATE_SNAPSHOTS === '1') {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, actual);
    return;
  }
  expect(actual, `snapshot ${name} changed; run with UPDATE_SNAPSHOTS=1 if intended`).to.equal(fs.readFileSync(file, 'utf8'));
}

/** CI services set `CI` (`true`, `1`); an empty value or `false` means a local run. */
function isCi(): boolean {
  const value = process.env.CI;
  return value !== undefined && value !== '' && value !== 'false' && value !== '0';
}
