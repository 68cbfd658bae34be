import { expect } from 'chai';
import { readFileSync } from 'node:fs';

// Until the package's own suites land: the package manifest names the package this folder builds.
describe('@framework-pro/billing package', () => {
  it('is named @framework-pro/billing', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { name: string };
    expect(manifest.name).to.equal('@framework-pro/billing');
  });
});
