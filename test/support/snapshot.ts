import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'chai';

/**
 * Compares a value with its committed snapshot under `test/__snapshots__/<name>.json`. A missing snapshot is
 * written (review it before committing); `UPDATE_SNAPSHOTS=1` rewrites them all after an intended change.
 */
export function expectSnapshot(name: string, value: unknown): void {
  const file = path.join(__dirname, '..', '__snapshots__', `${name}.json`);
  const actual = `${JSON.stringify(value, null, 2)}\n`;
  if (!fs.existsSync(file) || process.env.UPDATE_SNAPSHOTS === '1') {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, actual);
    return;
  }
  expect(actual, `snapshot ${name} changed; run with UPDATE_SNAPSHOTS=1 if intended`).to.equal(fs.readFileSync(file, 'utf8'));
}
