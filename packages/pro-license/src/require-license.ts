import { licenseEnvironment, readLicenseKey, type LicenseEnvironment } from './license-environment.js';
import { verifyLicenseKey, type LicenseVerification, type VerifyLicenseKeyOptions } from './verify-license-key.js';

export interface RequireLicenseOptions extends Omit<VerifyLicenseKeyOptions, 'package'> {
  /**
   * The environment the key and the mode are read from.
   * @default process.env
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Where the report lines go (one string per line).
   * @default - locally `console.warn`; deployed, stdout (CloudWatch Logs, where the metric line becomes a metric)
   */
  readonly write?: (line: string) => void;
}

/** What `requireLicense` found, and where it ran. */
export interface LicenseCheck extends LicenseVerification {
  readonly package: string;
  readonly environment: LicenseEnvironment;
}

/** The CloudWatch namespace and metric of the embedded-metric-format line a deployed function writes. */
export const LICENSE_METRIC = { namespace: 'framework-pro', name: 'LicenseProblem' } as const;

const checks = new Map<string, LicenseCheck>();

/**
 * The license check of a pro package, once per cold start (the result is kept for the process). Never throws and
 * never stops the package (see README.md, "Policy"):
 * - valid: nothing is written;
 * - locally (`fw dev`, tests, scripts) without a valid key: one clear warning, the package works;
 * - deployed without a valid key: a loud `error` log line and an embedded-metric-format line (metric
 *   `framework-pro/LicenseProblem`, dimensions `package`, `status`), and the package works.
 */
export function requireLicense(packageName: string, options: RequireLicenseOptions = {}): LicenseCheck {
  const known = checks.get(packageName);
  if (known) return known;
  const env = options.env ?? process.env;
  const environment = licenseEnvironment(env);
  const verification = verifyLicenseKey(readLicenseKey(env), { ...options, package: packageName });
  const check: LicenseCheck = { ...verification, package: packageName, environment };
  checks.set(packageName, check);
  if (!check.valid) report(check, options.write);
  return check;
}

function report(check: LicenseCheck, write?: (line: string) => void): void {
  const name = `@framework-pro/${check.package}`;
  if (check.environment === 'local') {
    (write ?? ((line: string) => console.warn(line)))(
      `[${name}] license: ${check.message}. Local development and tests are free: the package works. A deployed stage needs a valid key (it keeps working without one, and says so loudly).`,
    );
    return;
  }
  const out = write ?? ((line: string) => process.stdout.write(`${line}\n`));
  out(
    JSON.stringify({
      level: 'error',
      timestamp: new Date().toISOString(),
      message: `UNLICENSED ${name} in a deployed stage: ${check.message}. The package keeps working; set FW_LICENSE_KEY from a secret and redeploy.`,
      code: check.status,
      package: check.package,
    }),
  );
  out(
    JSON.stringify({
      _aws: {
        Timestamp: Date.now(),
        CloudWatchMetrics: [{ Namespace: LICENSE_METRIC.namespace, Dimensions: [['package', 'status']], Metrics: [{ Name: LICENSE_METRIC.name, Unit: 'Count' }] }],
      },
      package: check.package,
      status: check.status,
      [LICENSE_METRIC.name]: 1,
    }),
  );
}

/** Forgets the checks done (tests: a new "cold start"). */
export function resetLicenseChecks(): void {
  checks.clear();
}
