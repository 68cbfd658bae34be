import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expectCodeTable } from '../../core/test/helpers/code-table.js';
import { STORAGE_ERROR_CODES } from '../src/index.js';
import { S3_ERROR_STATUS } from '../src/local/index.js';

const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');

describe('error catalog', () => {
  it('every FW_ERR_STORAGE code is in the README error table, and the table has no other', () => {
    expectCodeTable(readme, 'Errors (`errors.ts`)', STORAGE_ERROR_CODES);
  });

  it('every S3 code the local engine answers with is documented with its status', () => {
    for (const [code, status] of Object.entries(S3_ERROR_STATUS)) {
      const row = readme.split('\n').find((line) => line.startsWith('| `') && line.includes(`\`${code}\``) && /\| \d{3} \|/.test(line));
      expect(row, code).to.be.a('string');
      expect(row).to.contain(`| ${status} |`);
    }
  });
});
