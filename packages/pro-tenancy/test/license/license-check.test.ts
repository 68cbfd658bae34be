import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';

const run = promisify(execFile);
const entry = pathToFileURL(fileURLToPath(new URL('../../src/index.ts', import.meta.url))).href;
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** A fresh process (a cold start) that imports the package and builds a middleware, with only `env` set. */
async function coldStart(env: Record<string, string>) {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('FW_') && !name.startsWith('AWS_')));
  const script = `const t = await import(${JSON.stringify(entry)}); t.tenantMiddleware(); console.log('loaded');`;
  return run(process.execPath, ['--import', tsx, '--input-type=module', '-e', script], { env: { ...base, ...env } });
}

describe('@framework-pro/tenancy license check (once per cold start)', function () {
  this.timeout(60_000);

  it('deployed without a key: works, and logs an UNLICENSED error line and a LicenseProblem metric line', async () => {
    const { stdout, stderr } = await coldStart({ AWS_LAMBDA_FUNCTION_NAME: 'acme-prod-fn-tasks-get' });
    const lines = stdout.trim().split('\n');
    expect(lines.at(-1)).to.equal('loaded');
    const log = JSON.parse(lines.find((l) => l.includes('UNLICENSED'))!) as Record<string, unknown>;
    expect(log).to.include({ level: 'error', code: 'FW_ERR_LICENSE_MISSING', package: 'tenancy' });
    const metric = JSON.parse(lines.find((l) => l.includes('CloudWatchMetrics'))!) as Record<string, unknown>;
    expect(metric).to.include({ package: 'tenancy', LicenseProblem: 1 });
    expect(stderr).not.to.contain('license');
  });

  it('locally with a tampered key: works, with one warning that says tampered', async () => {
    const [h, p] = ['eyJhbGciOiJFZERTQSJ9', Buffer.from(JSON.stringify({ licensee: 'x', packages: ['*'], iat: 0, exp: 4102444800 })).toString('base64url')];
    const { stdout, stderr } = await coldStart({ FW_LICENSE_KEY: `${h}.${p}.${'A'.repeat(86)}` });
    expect(stdout.trim()).to.equal('loaded');
    expect(stderr.match(/license:/g)).to.have.length(1);
    expect(stderr).to.contain('@framework-pro/tenancy').and.contain('tampered');
  });
});
