import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { expectCodeTable } from '../../core/test/helpers/code-table.js';
import { BILLING_ERROR_CODES, BILLING_HTTP_ERROR_CODES, BillingError, BillingHttpError } from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('@framework-pro/billing errors', () => {
  it('lists every HTTP error code in the README with its status, and nothing else', () => {
    expectCodeTable(readme, 'HTTP error codes', BILLING_HTTP_ERROR_CODES);
  });

  it('lists every configuration error code in the README, and nothing else', () => {
    expectCodeTable(readme, 'Configuration error codes', BILLING_ERROR_CODES);
  });

  it('answers each HTTP code with its status, and names the class', () => {
    for (const [code, { status }] of Object.entries(BILLING_HTTP_ERROR_CODES)) {
      expect(new BillingHttpError(code as keyof typeof BILLING_HTTP_ERROR_CODES, 'why and the fix')).to.include({ code, status });
    }
    expect(new BillingError('FW_ERR_BILLING_INVALID_PLANS', 'x')).to.include({ code: 'FW_ERR_BILLING_INVALID_PLANS', name: 'BillingError' });
  });
});
