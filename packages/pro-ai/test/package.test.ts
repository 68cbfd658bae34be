import { expect } from 'chai';
import { readFileSync } from 'node:fs';

// Until the package's own suites land: the package manifest names the package this folder builds.
describe('@framework-pro/ai package', () => {
  it('is named @framework-pro/ai', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { name: string };
    expect(manifest.name).to.equal('@framework-pro/ai');
  });
});
