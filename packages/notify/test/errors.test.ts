import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expectCodeTable } from '../../core/test/helpers/code-table.js';
import { NOTIFY_ERROR_CODES } from '../src/index.js';

const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');

describe('error catalog', () => {
  it('every FW_ERR_NOTIFY code is in the README error table, and the table has no other', () => {
    expectCodeTable(readme, 'Errors (`errors.ts`)', NOTIFY_ERROR_CODES);
  });
});
