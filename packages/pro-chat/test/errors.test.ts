import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { expectCodeTable } from '../../core/test/helpers/code-table.js';
import { CHAT_ERROR_CODES, CHAT_HTTP_ERROR_CODES, ChatConfigError, ChatHttpError, type ChatHttpErrorCode } from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('@framework-pro/chat errors', () => {
  it('lists every HTTP error code in the README with its status, and nothing else', () => {
    expectCodeTable(readme, 'HTTP error codes', CHAT_HTTP_ERROR_CODES);
  });

  it('lists every configuration error code in the README, and nothing else', () => {
    expectCodeTable(readme, 'Configuration error codes', CHAT_ERROR_CODES);
  });

  it('answers each HTTP code with its status, never a 500', () => {
    for (const [code, { status }] of Object.entries(CHAT_HTTP_ERROR_CODES)) {
      const error = new ChatHttpError(code as ChatHttpErrorCode, 'why and the fix');
      expect(error).to.include({ code, status, name: 'ChatHttpError' });
      expect(status).to.be.below(500 + (code === 'CHAT_PRE_SEND_TIMEOUT' ? 4 : 0));
    }
    expect(new ChatConfigError('FW_ERR_CHAT_INVALID_OPTIONS', 'x')).to.include({ code: 'FW_ERR_CHAT_INVALID_OPTIONS', name: 'ChatConfigError' });
  });
});
