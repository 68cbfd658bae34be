import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect } from 'chai';

const here = path.dirname(fileURLToPath(import.meta.url));
const packageDir = path.resolve(here, '..', '..');
const loader = pathToFileURL(path.join(packageDir, 'src', 'checks', 'load-cdk-nag.ts')).href;

interface Checked {
  /** The AwsSolutions rules that found something, sorted. */
  readonly rules: string[];
  /** Whether any file of aws-cdk-lib's QuickSight service was loaded by the end. */
  readonly quicksightLoaded: boolean;
}

/**
 * Runs the AwsSolutions pack over a small app in a fresh process (which modules a process loaded is the point):
 * cdk-nag loaded by `loadCdkNag` ('lean') or by a plain require ('plain'); with `quicksight`, a QuickSight data source
 * without SSL is added after cdk-nag was loaded (its service loaded only then).
 */
function check(how: 'lean' | 'plain', quicksight: boolean): Checked {
  const script = [
    `import { createRequire } from 'node:module';`,
    `import { loadCdkNag } from ${JSON.stringify(loader)};`,
    `const require = createRequire(${JSON.stringify(path.join(packageDir, 'package.json'))});`,
    `const nag = ${how === 'lean' ? 'loadCdkNag()' : "require('cdk-nag')"};`,
    `const { App, Stack } = require('aws-cdk-lib/core');`,
    `const app = new App();`,
    `const stack = new Stack(app, 'Checked');`,
    `new (require('aws-cdk-lib/aws-sqs').Queue)(stack, 'Queue');`,
    quicksight
      ? `new (require('aws-cdk-lib/aws-quicksight').CfnDataSource)(stack, 'Source', { awsAccountId: '123456789012', dataSourceId: 'source', name: 'source', type: 'ATHENA', sslProperties: { disableSsl: true } });`
      : '',
    `const report = new nag.AwsSolutionsChecks(app).validateScope(app);`,
    `const rules = [...new Set(report.violations.map((v) => v.ruleName))].sort();`,
    `const quicksightLoaded = Object.keys(require.cache).some((file) => file.includes('aws-quicksight'));`,
    `console.log(JSON.stringify({ rules, quicksightLoaded }));`,
  ].join('\n');
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: packageDir, encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`the check failed:\n${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop()!) as Checked;
}

describe('cdk-nag loading (loadCdkNag)', () => {
  it('finds what cdk-nag finds without loading the services the app does not use', function () {
    this.timeout(300_000);
    // Given an app with a queue only, checked by the pack loaded both ways
    const lean = check('lean', false);
    const plain = check('plain', false);
    // Then the same rules report findings, and the lean loading never loaded QuickSight
    expect(lean.rules).to.not.be.empty;
    expect(lean.rules).to.deep.equal(plain.rules);
    expect(lean.quicksightLoaded).to.equal(false);
  });

  it('checks a resource of a service loaded after cdk-nag', function () {
    this.timeout(300_000);
    // Given a QuickSight data source without SSL, created once cdk-nag is loaded
    const lean = check('lean', true);
    const plain = check('plain', true);
    // Then its finding is reported, as with cdk-nag loaded plainly
    expect(lean.rules).to.include('AwsSolutions-QS1');
    expect(lean.rules).to.deep.equal(plain.rules);
  });
});
