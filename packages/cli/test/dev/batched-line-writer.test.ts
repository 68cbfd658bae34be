import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { batchedLineWriter } from '../../src/dev/activity/index.js';

describe('fw dev activity log: lines written in batches, at most one write per interval', () => {
  it('writes the lines of one interval in one write, in order, and nothing before the interval ends', async () => {
    const writes: string[] = [];
    const write = batchedLineWriter({ write: (text: string) => writes.push(text) }, 40);
    write('GET /a 200');
    await new Promise((resolve) => setImmediate(resolve));
    write('GET /b 200');
    expect(writes).to.deep.equal([]);
    await sleep(80);
    expect(writes).to.deep.equal(['GET /a 200\nGET /b 200\n']);
    write('GET /c 200');
    await sleep(80);
    expect(writes).to.deep.equal(['GET /a 200\nGET /b 200\n', 'GET /c 200\n']);
  });

  it('writes a burst of 64 KB at once, without waiting for the interval', () => {
    const writes: string[] = [];
    const write = batchedLineWriter({ write: (text: string) => writes.push(text) }, 60_000);
    const line = 'x'.repeat(1023);
    for (let i = 0; i < 64; i++) write(line);
    expect(writes).to.have.length(1);
    expect(writes[0]).to.equal(`${line}\n`.repeat(64));
  });

  for (const ending of ['process.exit(0)', 'nothing (the event loop empties)']) {
    it(`writes what is pending when the process exits before the interval ends: ${ending}`, () => {
      const module = path.resolve(__dirname, '../../src/dev/activity/index.ts');
      const exit = ending.startsWith('process.exit') ? 'process.exit(0);\n' : '';
      // A pending line must neither be lost nor keep the process alive for its interval (10 s here).
      const script = `import { batchedLineWriter } from ${JSON.stringify(module)};\nconst write = batchedLineWriter(process.stdout, 10_000);\nwrite('line one');\nwrite('line two');\n${exit}`;
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 8_000 });
      expect(child.status, child.stderr).to.equal(0);
      expect(child.stdout).to.equal('line one\nline two\n');
    });
  }
});
