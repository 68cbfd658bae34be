import { expect } from 'chai';
import { CONFIG_PROBLEM_CODES, CORE_ERROR_CODES, ENV, INTENT_KIND_REGISTRY, PRESET_NAMES } from '../src/index.js';
import { expectCodeTable, readmeCodeRows } from './helpers/code-table.js';
import { presetRows, readReadme, tableRows } from './helpers/readme.js';

// The README's tables are documentation users read instead of the source: these tests keep them true.
describe('README.md', () => {
  const readme = readReadme();

  it('lists every ConfigError problem code, and no other, in the codes table, each with cause and fix', () => {
    expectCodeTable(readme, '`ConfigError` problem codes', CONFIG_PROBLEM_CODES);
    for (const row of readmeCodeRows(readme, '`ConfigError` problem codes')) {
      expect(row.cells.cause, `cause of ${row.code}`).not.to.equal('');
      expect(row.cells.fix, `fix of ${row.code}`).not.to.equal('');
    }
  });

  it('lists the codes of the error classes, and no other', () => {
    expectCodeTable(readme, 'Errors', CORE_ERROR_CODES);
  });

  it('shows every preset field with the values of PRESETS', () => {
    const lines = readme.split('\n');
    expect(lines).to.include(`| field | ${PRESET_NAMES.join(' | ')} | meaning |`);
    const rows = tableRows(readme, `field | ${PRESET_NAMES.join(' | ')}`);
    const expected = presetRows();
    expect(rows.map((r) => r[0])).to.deep.equal(expected.map((r) => r.field));
    for (const [index, row] of rows.entries()) {
      const values = expected[index]!.values.map((v) => v.replace(/^`|`$/g, ''));
      expect(row.slice(1, 1 + PRESET_NAMES.length), row[0]).to.deep.equal(values);
      expect(row[1 + PRESET_NAMES.length], `meaning of ${row[0]}`).to.be.a('string').and.not.equal('');
    }
  });

  it('names every variable of ENV in the environment table', () => {
    const documented = tableRows(readme, 'variable').flatMap((r) => r[0]!.split(/`?,\s*`?/));
    for (const name of Object.values(ENV)) expect(documented, name).to.include(name);
  });

  it('documents every kind of the registry: its field of the app model, its intents and its module', () => {
    const fields = tableRows(readme, 'field').map((r) => r[0]);
    for (const [name, kind] of Object.entries(INTENT_KIND_REGISTRY)) {
      expect(fields, `AppDefinition.${name}`).to.include(name);
      if ('configKey' in kind) expect(readme, `infrastructure.${kind.configKey}`).to.match(new RegExp(`^### \\\`${kind.configKey}\\\``, 'm'));
      expect(readme, `src/intents/${name}.ts`).to.include(`\`${name}.ts\``);
    }
  });
});
