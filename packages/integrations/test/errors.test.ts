import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expectCodeTable } from '../../core/test/helpers/code-table.js';
import { INTEGRATIONS_ERROR_CODES, INTEGRATIONS_HTTP_ERROR_CODES } from '../src/index.js';

const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');

describe('error catalog', () => {
  it('every code of the package is in the README error table, and the table has no other', () => {
    expectCodeTable(readme, 'Errors (`errors.ts`)', INTEGRATIONS_ERROR_CODES);
  });

  it('README documents exactly the HTTP codes of INTEGRATIONS_HTTP_ERROR_CODES, with their status', () => {
    expectCodeTable(readme, 'Errors that become HTTP answers', INTEGRATIONS_HTTP_ERROR_CODES);
  });
});
