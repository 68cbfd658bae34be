import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'chai';
import { expectSnapshot } from './snapshot';
import { tempDir } from './temp-dir';

describe('expectSnapshot', () => {
  const saved = { CI: process.env.CI, UPDATE_SNAPSHOTS: process.env.UPDATE_SNAPSHOTS };
  let folder: ReturnType<typeof tempDir>;
  beforeEach(() => {
    folder = tempDir('fw-snapshots');
    delete process.env.UPDATE_SNAPSHOTS;
  });
  afterEach(() => {
    folder.remove();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('fails in CI when the snapshot is missing, and writes nothing', () => {
    // Given CI and no committed snapshot
    process.env.CI = 'true';
    // When a value is compared with it
    const compare = () => expectSnapshot('never-committed', { a: 1 }, folder.dir);
    // Then the test fails, naming the snapshot, and no file appears
    expect(compare).to.throw(/snapshot never-committed is missing/);
    expect(fs.existsSync(path.join(folder.dir, 'never-committed.json'))).to.equal(false);
  });

  it('writes a missing snapshot outside CI, then holds the value to it', () => {
    // Given a local run without the snapshot
    delete process.env.CI;
    // When it is compared once, then with another value
    expectSnapshot('first-run', { a: 1 }, folder.dir);
    // Then the first run wrote it and a changed value fails
    expect(fs.readFileSync(path.join(folder.dir, 'first-run.json'), 'utf8')).to.equal('{\n  "a": 1\n}\n');
    expect(() => expectSnapshot('first-run', { a: 2 }, folder.dir)).to.throw(/snapshot first-run changed/);
  });

  it('compares with a committed snapshot in CI', () => {
    process.env.CI = 'true';
    fs.writeFileSync(path.join(folder.dir, 'committed.json'), '{\n  "a": 1\n}\n');
    expectSnapshot('committed', { a: 1 }, folder.dir);
    expect(() => expectSnapshot('committed', { a: 2 }, folder.dir)).to.throw(/changed/);
  });
});
