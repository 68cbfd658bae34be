import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { AUTH_ERROR_CODES } from '../src/index.js';

const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');

describe('error catalog', () => {
  it('every FW_ERR_AUTH code is in the README error table, and the table has no other', () => {
    const documented = [...readme.matchAll(/^\| `(FW_ERR_AUTH_[A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(documented.sort()).to.deep.equal(Object.keys(AUTH_ERROR_CODES).sort());
  });
});
