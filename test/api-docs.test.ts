import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { tempDir } from './support/temp-dir';

const run = promisify(execFile);
const repoRoot = path.resolve(__dirname, '..');

/** API.md is generated (jsii-docgen, in the build's post-compile); CI fails when the committed one is stale. */
describe('API.md', function () {
  this.timeout(120_000);

  it('is what jsii-docgen generates from the current source', async () => {
    // Given the jsii assembly of the current source
    await run(path.join(repoRoot, 'node_modules', '.bin', 'jsii'), ['--silence-warnings=reserved-word'], { cwd: repoRoot });
    const out = tempDir('fw-api-md');
    try {
      // When the docs are generated
      await run(path.join(repoRoot, 'node_modules', '.bin', 'jsii-docgen'), ['-o', path.join(out.dir, 'API.md')], { cwd: repoRoot });
      // Then they equal the committed API.md
      const committed = fs.existsSync(path.join(repoRoot, 'API.md')) ? fs.readFileSync(path.join(repoRoot, 'API.md'), 'utf8') : '(missing)';
      expect(committed === fs.readFileSync(path.join(out.dir, 'API.md'), 'utf8'), 'API.md is stale: run `npx projen compile` (or `npx projen docgen` after jsii) and commit it').to.equal(true);
    } finally {
      out.remove();
    }
  });
});
