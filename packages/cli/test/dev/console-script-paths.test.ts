import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEV_PATHS } from '@framework/core';
import { expect } from 'chai';
import { CONSOLE_PATHS } from '../../src/dev/console/console-paths.js';
import { CRONS_TAB_SCRIPT } from '../../src/dev/console/assets/crons-tab-script.js';
import { ROUTES_TAB_SCRIPT } from '../../src/dev/console/assets/routes-tab-script.js';

/*
 * The console's browser scripts call the dev server's own endpoints: their paths come from core's `DEV_PATHS` and the
 * console's `CONSOLE_PATHS`, so moving an endpoint cannot leave a tab calling the old path.
 */
describe('dev console scripts: paths from core', () => {
  const assetsDir = path.resolve(__dirname, '..', '..', 'src', 'dev', 'console', 'assets');

  it('spell no /_dev path in a string of their code', () => {
    const literal = /['"]\/_dev[^'"]*['"]/g;
    const found = fs
      .readdirSync(assetsDir)
      .filter((name) => name.endsWith('.ts'))
      .flatMap((name) => (fs.readFileSync(path.join(assetsDir, name), 'utf8').match(literal) ?? []).map((match) => `${name}: ${match}`));
    expect(found).to.deep.equal([]);
  });

  it('render the paths of core and of the console into the scripts', () => {
    expect(CRONS_TAB_SCRIPT).to.contain(`'${DEV_PATHS.invokeCron}/'`).and.to.contain(`'${CONSOLE_PATHS.crons}'`);
    expect(ROUTES_TAB_SCRIPT).to.contain(`'${DEV_PATHS.token}'`).and.to.contain(`'${DEV_PATHS.functions}'`).and.to.contain(`'${CONSOLE_PATHS.app}'`);
  });
});
