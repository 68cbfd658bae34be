import * as fs from 'node:fs';
import { expect } from 'chai';

describe('fw dev refusing to start', function () {
  this.timeout(20_000);
  it('says what is wrong, exits 1 and prints no stack trace', async () => {
    const { spawnSync } = await import('node:child_process');
    const os = await import('node:os');
    const path = await import('node:path');
    const { FW_BIN } = await import('./helpers.js');
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-dev-empty-'));
    try {
      const cases: [string[], RegExp][] = [
        [['dev'], /no fw\.config\.ts in .*: run fw dev in the project folder/],
        [['dev', '--port', 'abc'], /--port abc: expected a port number/],
        [['dev', '--engine', 'databases=cloud'], /engine choice "databases=cloud"/],
      ];
      for (const [args, message] of cases) {
        const result = spawnSync(process.execPath, [FW_BIN, ...args], { cwd: empty, encoding: 'utf8' });
        expect(result.status, args.join(' ')).to.equal(1);
        expect(result.stderr, args.join(' ')).to.match(message);
        expect(result.stderr).to.not.contain('    at ');
      }
      // A usage error (the command line itself) exits 2, as every command's does.
      const usage = spawnSync(process.execPath, [FW_BIN, 'dev', '--bogus'], { cwd: empty, encoding: 'utf8' });
      expect(usage.status).to.equal(2);
      expect(usage.stderr).to.equal('fw dev: unknown option --bogus. Run "fw dev --help" for its usage.\n');
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
