import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { expectCodeTable } from '../../core/test/helpers/code-table.js';
import { AI_ERROR_CODES, AI_HTTP_ERROR_CODES, AiError, AiHttpError } from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('@framework-pro/ai errors', () => {
  it('lists every HTTP error code in the README with its status, and nothing else', () => {
    expectCodeTable(readme, 'HTTP error codes', AI_HTTP_ERROR_CODES);
  });

  it('lists every configuration error code in the README, and nothing else', () => {
    expectCodeTable(readme, 'Configuration error codes', AI_ERROR_CODES);
  });

  it('answers each HTTP code with its status', () => {
    for (const [code, { status }] of Object.entries(AI_HTTP_ERROR_CODES)) {
      expect(new AiHttpError(code as keyof typeof AI_HTTP_ERROR_CODES, 'why and the fix')).to.include({ code, status });
    }
    expect(new AiError('FW_ERR_AI_INVALID_OPTIONS', 'x')).to.include({ name: 'AiError', code: 'FW_ERR_AI_INVALID_OPTIONS' });
  });
});
