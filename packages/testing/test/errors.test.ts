import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { expectCodeTable } from '../../core/test/helpers/code-table.js';
import { durationMs, TESTING_ERROR_CODES, TestingError } from '../src/index.js';

const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');

describe('error catalog', () => {
  it('every FW_ERR_TESTING code is in the README error table, and the table has no other', () => {
    expectCodeTable(readme, 'Errors (`errors.ts`)', TESTING_ERROR_CODES);
  });
});

describe('durationMs', () => {
  it('reads milliseconds and unit text', () => {
    expect(durationMs(250)).to.equal(250);
    expect(durationMs('1d')).to.equal(86_400_000);
    expect(durationMs('1d 2h')).to.equal(93_600_000);
    expect(durationMs('90s')).to.equal(90_000);
    expect(durationMs('500ms')).to.equal(500);
  });

  it('refuses anything else with FW_ERR_TESTING_BAD_OPTION naming the forms', () => {
    for (const bad of ['', 'one day', '1 d', '-1s', -5, Number.NaN]) {
      expect(() => durationMs(bad), String(bad)).to.throw(TestingError, /not a duration.*'1d'/);
    }
  });
});
