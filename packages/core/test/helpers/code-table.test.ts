import { expect } from 'chai';
import { expectCodeTable, readmeCodes } from './code-table.js';

const README = [
  '# pkg',
  '## Errors',
  '| code | cause | fix |',
  '|---|---|---|',
  '| `FW_ERR_A` | a | fix a |',
  '| `IN_PROGRESS` (409) | busy \\| locked | retry |',
  '### Not errors',
  '| field | meaning |',
  '|---|---|',
  '| `NOT_A_CODE` | x |',
  '## Next',
  '| code | cause | fix |',
  '|---|---|---|',
  '| `FW_ERR_ELSEWHERE` | c | d |',
].join('\n');

describe('the README code-table check', () => {
  it('reads the code column of the section, status suffix removed, other tables and sections left out', () => {
    expect(readmeCodes(README, 'Errors')).to.deep.equal(['FW_ERR_A', 'IN_PROGRESS']);
  });

  it('passes when README and catalog hold the same codes', () => {
    expectCodeTable(README, 'Errors', { FW_ERR_A: 'a', IN_PROGRESS: 'b' });
  });

  it('fails both ways: a code without a row, and a row without a code', () => {
    expect(() => expectCodeTable(README, 'Errors', { FW_ERR_A: 'a', IN_PROGRESS: 'b', FW_ERR_NEW: 'c' })).to.throw(/FW_ERR_NEW/);
    expect(() => expectCodeTable(README, 'Errors', ['FW_ERR_A'])).to.throw(/IN_PROGRESS/);
    expect(() => expectCodeTable(README, 'Missing section', [])).to.throw(/no section headed "Missing section"/);
  });

  it('holds an HTTP catalog to the status column', () => {
    const http = ['## HTTP', '| code | status | cause |', '|---|---|---|', '| `NOT_FOUND` | 404 | none |'].join('\n');
    expectCodeTable(http, 'HTTP', { NOT_FOUND: { status: 404, meaning: 'none' } });
    expect(() => expectCodeTable(http, 'HTTP', { NOT_FOUND: { status: 410, meaning: 'gone' } })).to.throw(/NOT_FOUND has status 404 in the README, 410 in the catalog/);
  });
});
