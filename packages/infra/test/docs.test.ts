import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { expectCodeTable } from '../../core/test/helpers/code-table.js';
import { INFRA_ERROR_CODES, NAG_ACKNOWLEDGEMENTS } from '../src/index.js';

const readme = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'README.md'), 'utf8');

describe('README.md', () => {
  it('lists exactly the error codes of INFRA_ERROR_CODES, each once', () => {
    expectCodeTable(readme, 'Errors', INFRA_ERROR_CODES);
  });

  it('shows every acknowledged cdk-nag finding with its reason', () => {
    for (const ack of Object.values(NAG_ACKNOWLEDGEMENTS)) {
      expect(readme, ack.id).to.include(`| \`${ack.id.replace(/\[.*$/, '')}\``);
      expect(readme, ack.id).to.include(`| ${ack.on} | ${ack.reason} |`);
    }
  });
});
