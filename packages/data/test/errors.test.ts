import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expectCodeTable } from '../../core/test/helpers/code-table.js';
import { DATA_ERROR_CODES, DATA_HTTP_ERROR_CODES, DataError, MigrationChangedError, NoRowsError } from '../src/errors.js';

const readme = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'README.md'), 'utf8');

describe('error codes', () => {
  it('README documents exactly the FW_ERR_DATA codes of DATA_ERROR_CODES', () => {
    expectCodeTable(readme, 'Errors', DATA_ERROR_CODES);
  });

  it('README documents exactly the HTTP codes of DATA_HTTP_ERROR_CODES', () => {
    expectCodeTable(readme, 'Errors that become HTTP answers', DATA_HTTP_ERROR_CODES);
  });

  it('errors carry their code and class name and tell the fix', () => {
    const e = new MigrationChangedError(['0002_x.sql']);
    expect(e).to.be.instanceOf(DataError).and.include({ code: 'FW_ERR_DATA_MIGRATION_CHANGED', name: 'MigrationChangedError' });
    expect(e.message).to.contain('0002_x.sql').and.contain('new migration');
    expect(new NoRowsError('SELECT 1').message).to.contain('maybeOne');
  });
});
