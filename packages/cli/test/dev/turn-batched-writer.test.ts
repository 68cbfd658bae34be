import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { expect } from 'chai';
import { turnBatchedWriter } from '../../src/dev/activity/index.js';

describe('fw dev activity log: lines written once per turn of the event loop', () => {
  it('writes the lines of one turn in one write, in order, and nothing before the turn ends', async () => {
    const writes: string[] = [];
    const write = turnBatchedWriter({ write: (text: string) => writes.push(text) });
    write('GET /a 200');
    write('GET /b 200');
    expect(writes).to.deep.equal([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).to.deep.equal(['GET /a 200\nGET /b 200\n']);
    write('GET /c 200');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).to.deep.equal(['GET /a 200\nGET /b 200\n', 'GET /c 200\n']);
  });

  it('writes what is pending when the process exits before the turn ends', () => {
    const module = path.resolve(__dirname, '../../src/dev/activity/index.ts');
    const script = `import { turnBatchedWriter } from ${JSON.stringify(module)};\nconst write = turnBatchedWriter(process.stdout);\nwrite('line one');\nwrite('line two');\nprocess.exit(0);\n`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.status, child.stderr).to.equal(0);
    expect(child.stdout).to.equal('line one\nline two\n');
  });
});
