import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { linkDatabasesToMemory, removeDataFolder } from '../src/data/memory-folder.js';

describe("a test app's databases in memory", () => {
  it('the next app removes the folder of a test process that was killed (its pid is gone)', function () {
    if (process.platform !== 'linux' || !fs.existsSync('/dev/shm')) this.skip(); // tmpfs at /dev/shm is Linux's
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const orphan = fs.mkdtempSync(path.join('/dev/shm', `fw-test-${gone}-`));
    fs.writeFileSync(path.join(orphan, 'data'), 'x');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-memory-test-'));
    try {
      const memory = linkDatabasesToMemory(dataDir);
      if (memory === undefined) this.skip(); // less than 1 GB free in /dev/shm: the databases stay on disk
      expect(fs.existsSync(orphan)).to.equal(false);
      expect(fs.realpathSync(path.join(dataDir, 'databases'))).to.equal(memory);
      removeDataFolder(dataDir);
      expect(fs.existsSync(memory!)).to.equal(false);
    } finally {
      fs.rmSync(orphan, { recursive: true, force: true });
      removeDataFolder(dataDir);
    }
  });
});
