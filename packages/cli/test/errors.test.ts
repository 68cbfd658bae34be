import * as fs from 'node:fs';
import { expectCodeTable } from '../../core/test/helpers/code-table.js';
import { DEV_GATEWAY_ERROR_CODES } from '../src/dev/server/gateway-error-codes.js';
import { CLI_ERROR_CODES } from '../src/errors.js';

const readme = fs.readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README error tables', () => {
  it("list exactly fw's FW_ERR codes", () => {
    expectCodeTable(readme, ['The command line', 'Errors of `fw dev`, `fw g`, `fw migrate`, `fw tenancy` and `fw auth`', '`fw openapi`', 'Cloud commands', '`fw init`'], CLI_ERROR_CODES);
  });

  it("list exactly the codes of fw dev's own error answers", () => {
    expectCodeTable(readme, "Error codes of fw dev's answers", DEV_GATEWAY_ERROR_CODES);
  });
});
