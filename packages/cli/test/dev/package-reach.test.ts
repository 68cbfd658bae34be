import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { PackageReach, packageName } from '../../src/dev/functions/package-reach.js';
import { REPO } from './helpers.js';

/**
 * Which handlers wait for the database at start-up: those whose imported packages reach a PostgreSQL client through
 * their dependencies. Read from the repository's own packages (installed in its node_modules).
 */
describe('fw dev: which handlers may open a database connection (package reach)', () => {
  const dirs: string[] = [];
  after(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('names the package of a bare specifier, and none for built-ins and paths', () => {
    expect(packageName('@framework/data/migrations')).to.equal('@framework/data');
    expect(packageName('zod/v4')).to.equal('zod');
    expect(packageName('node:fs')).to.equal(undefined);
    expect(packageName('fs')).to.equal(undefined);
    expect(packageName('./lib.js')).to.equal(undefined);
  });

  it('says a handler importing only the runtime (and zod) never reaches the database', () => {
    // Given the packages a health-check handler imports
    // When their dependencies are followed
    // Then no PostgreSQL client is among them
    expect(new PackageReach().anyReaches(['@framework/runtime', 'zod', 'node:crypto'], REPO)).to.equal(false);
  });

  it('says a handler importing the data package, or a package depending on it, reaches the database', () => {
    const reach = new PackageReach();
    expect(reach.anyReaches(['@framework/data'], REPO)).to.equal(true);
    // @framework-pro/tenancy depends on @framework/data, which depends on pg.
    expect(reach.anyReaches(['@framework/runtime', '@framework-pro/tenancy'], REPO)).to.equal(true);
    expect(reach.anyReaches(['pg'], REPO)).to.equal(true);
  });

  it('counts a package it cannot find as reaching the database (when in doubt, the handler waits)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-package-reach-'));
    dirs.push(dir);
    expect(new PackageReach().anyReaches(['a-package-not-installed-anywhere'], dir)).to.equal(true);
  });
});
