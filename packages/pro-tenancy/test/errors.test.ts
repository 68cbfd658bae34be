import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { expectCodeTable } from '../../core/test/helpers/code-table.js';
import { TENANCY_ERROR_CODES, TENANCY_HTTP_ERROR_CODES, TenancyCheckError, TenancyHttpError } from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('@framework-pro/tenancy errors', () => {
  it('lists every HTTP error code in the README with its status, and nothing else', () => {
    expectCodeTable(readme, 'HTTP error codes', TENANCY_HTTP_ERROR_CODES);
  });

  it('lists every configuration error code in the README, and nothing else', () => {
    expectCodeTable(readme, 'Configuration error codes', TENANCY_ERROR_CODES);
  });

  it('answers each HTTP code with its status', () => {
    for (const [code, { status }] of Object.entries(TENANCY_HTTP_ERROR_CODES)) {
      const error = new TenancyHttpError(code as keyof typeof TENANCY_HTTP_ERROR_CODES, 'why and the fix');
      expect(error).to.include({ code, status });
    }
  });

  it('lists each problem of a failed tenancy check with its fix', () => {
    const e = new TenancyCheckError([{ subject: 'public.notes', problem: 'has no policy on app.tenant_id.', fix: 'add the policy.' }]);
    expect(e).to.include({ code: 'FW_ERR_TENANCY_CHECK_FAILED', name: 'TenancyCheckError' });
    expect(e.message).to.contain('public.notes').and.contain('Fix: add the policy.');
  });
});
