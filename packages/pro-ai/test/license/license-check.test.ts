import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';

const run = promisify(execFile);
const entry = pathToFileURL(fileURLToPath(new URL('../../src/index.ts', import.meta.url))).href;
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** A fresh process (a cold start) that imports the package and makes two model calls, with only `env` set. */
async function coldStart(env: Record<string, string>) {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('FW_') && !name.startsWith('AWS_')));
  const script = [
    `const ai = await import(${JSON.stringify(entry)});`,
    `const model = ai.createModel({ provider: 'mock' }, { logger: { info() {}, warn() {}, error() {}, debug() {}, child() { return this; }, isEnabled: () => false } });`,
    `await model.generate({ prompt: 'a' }); await model.generate({ prompt: 'b' });`,
    `await import(${JSON.stringify(entry)});`,
    `console.log('loaded');`,
  ].join('\n');
  return run(process.execPath, ['--import', tsx, '--input-type=module', '-e', script], { env: { ...base, ...env } });
}

describe('@framework-pro/ai license check (once per cold start)', function () {
  this.timeout(120_000);

  it('deployed without a key: works, and logs one UNLICENSED error line and one LicenseProblem metric line', async () => {
    const { stdout, stderr } = await coldStart({ AWS_LAMBDA_FUNCTION_NAME: 'acme-prod-fn-ask' });
    const lines = stdout.trim().split('\n');
    expect(lines.at(-1)).to.equal('loaded');
    const unlicensed = lines.filter((l) => l.includes('UNLICENSED'));
    expect(unlicensed).to.have.length(1);
    expect(JSON.parse(unlicensed[0]!)).to.include({ level: 'error', code: 'FW_ERR_LICENSE_MISSING', package: 'ai' });
    const metrics = lines.filter((l) => l.includes('CloudWatchMetrics'));
    expect(metrics).to.have.length(1);
    expect(JSON.parse(metrics[0]!)).to.include({ package: 'ai', LicenseProblem: 1 });
    expect(stderr).not.to.contain('license');
  });

  it('locally without a key: works, with one warning naming the package', async () => {
    const { stdout, stderr } = await coldStart({});
    expect(stdout.trim()).to.equal('loaded');
    expect(stderr.match(/license:/g)).to.have.length(1);
    expect(stderr).to.contain('@framework-pro/ai');
  });
});
