import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { expectCodeTable } from '../../core/test/helpers/code-table.js';
import * as runtime from '../src/index.js';
import { HTTP_ERROR_CODES, HttpError, InsufficientScope, InvalidJson, RUNTIME_ERROR_CODES } from '../src/index.js';

const readme = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'README.md'), 'utf8');

/** Rows of the first table under `### <heading>`: cells without backticks. */
function tableRows(heading: string): string[][] {
  const start = readme.indexOf(`### ${heading}`);
  expect(start, `README has a "${heading}" section`).to.be.greaterThan(-1);
  const lines = readme.slice(start).split('\n');
  const first = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split('|').slice(1, -1).map((c) => c.trim().replace(/`/g, '')));
  }
  return rows;
}

describe('errors', () => {
  it('lists every HTTP error code in the README with its status, and nothing else', () => {
    expectCodeTable(readme, 'HTTP error codes', HTTP_ERROR_CODES);
    const rows = tableRows('HTTP error codes');
    for (const [code, status] of rows) expect(String(HTTP_ERROR_CODES[code as keyof typeof HTTP_ERROR_CODES].status)).to.equal(status);
  });

  it('has a class per README row that answers with that status and code', () => {
    const exported = runtime as unknown as Record<string, unknown>;
    for (const [code, status, className] of tableRows('HTTP error codes')) {
      const Class = exported[className!] as new (...args: unknown[]) => HttpError;
      expect(Class, className).to.be.a('function');
      const error =
        Class === (InsufficientScope as unknown) ? new InsufficientScope(['a'], ['a']) : Class === (InvalidJson as unknown) ? new InvalidJson() : new Class();
      expect(error).to.be.instanceOf(HttpError);
      expect(error.name).to.equal(className);
      expect(error.code).to.equal(code);
      expect(String(error.status)).to.equal(status);
      expect(error.message).not.to.equal('');
    }
  });

  it('lists every runtime error code in the README, and nothing else', () => {
    expectCodeTable(readme, 'Runtime error codes', RUNTIME_ERROR_CODES);
  });

  it('lets a subclass carry a custom code, details and a cause', () => {
    const cause = new Error('db said no');
    const error = new runtime.Conflict('Task t1 was changed', { code: 'TASK_VERSION_MISMATCH', details: { version: 3 }, cause });
    expect(error).to.include({ status: 409, code: 'TASK_VERSION_MISMATCH', cause });
    expect(error.details).to.deep.equal({ version: 3 });
  });
});
