import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseEnv } from 'node:util';
import { ENV, LICENSE_KEY_CONTEXT } from '@framework/core/names';

/**
 * What `fw license` and `fw deploy` need of `@framework-pro/license`. The cli does not depend on a pro package: it
 * loads the one the project installed (the version its functions will run), so the check is the functions' own.
 */
interface LicenseClaimsView {
  readonly licensee: string;
  readonly packages: readonly string[];
  readonly features?: readonly string[];
  readonly exp: number;
  readonly releasesBefore?: number;
}

interface LicenseVerificationView {
  readonly status: string;
  readonly valid: boolean;
  readonly claims?: LicenseClaimsView;
  readonly expiredButCoversRelease?: boolean;
  readonly message: string;
}

interface LicenseModule {
  verifyLicenseKey(key: string | undefined, options?: { package?: string; publicKey?: unknown }): LicenseVerificationView;
  RELEASE_DATE: string;
  LICENSE_KEY_VARIABLE: string;
}

/** The `@framework-pro/*` packages (other than the license package) the project depends on, by short name. */
export function proPackagesOf(rootDir: string): string[] {
  const file = join(rootDir, 'package.json');
  if (!existsSync(file)) return [];
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  const names = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
  return names.filter((name) => name.startsWith('@framework-pro/') && name !== '@framework-pro/license').map((name) => name.slice('@framework-pro/'.length)).sort();
}

async function loadLicenseModule(rootDir: string): Promise<LicenseModule | undefined> {
  try {
    const resolved = createRequire(join(rootDir, 'package.json')).resolve('@framework-pro/license');
    return (await import(pathToFileURL(resolved).href)) as LicenseModule;
  } catch {
    return undefined;
  }
}

/** Where the key was found, as `fw license` says it. */
function keyOf(rootDir: string, env: Readonly<Record<string, string | undefined>>, variable: string): { key?: string; from: string } {
  const fromEnv = env[variable];
  if (fromEnv) return { key: fromEnv, from: `${variable} in the environment` };
  const file = join(rootDir, '.env');
  if (existsSync(file)) {
    const value = parseEnv(readFileSync(file, 'utf8'))[variable];
    if (value) return { key: value, from: `${variable} in .env` };
  }
  return { from: `${variable} is not set (environment or .env)` };
}

/** What the project's key grants: the lines `fw license` prints, and whether every pro package it uses is covered. */
export interface ProjectLicenseReport {
  readonly lines: readonly string[];
  /** Every `@framework-pro/*` package the project uses is covered (true when it uses none). */
  readonly ok: boolean;
  /** One line per package that is not covered (what `fw deploy` warns with). */
  readonly problems: readonly string[];
}

const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

/** Reads the project's key and checks it with the project's own `@framework-pro/license`. */
export async function projectLicenseReport(rootDir: string, env: Readonly<Record<string, string | undefined>> = process.env, options: { publicKey?: unknown } = {}): Promise<ProjectLicenseReport> {
  const packages = proPackagesOf(rootDir);
  const license = await loadLicenseModule(rootDir);
  if (!license) {
    if (packages.length === 0) return { lines: ['This project uses no @framework-pro package: nothing needs a license key.'], ok: true, problems: [] };
    const problem = `@framework-pro/license is not installed in this project (it comes with @framework-pro/${packages[0]}); run npm install`;
    return { lines: [problem], ok: false, problems: [problem] };
  }
  const { key, from } = keyOf(rootDir, env, license.LICENSE_KEY_VARIABLE);
  const overall = license.verifyLicenseKey(key, options.publicKey ? { publicKey: options.publicKey } : {});
  const lines = [`Key:              ${from}`];
  const claims = overall.claims;
  if (claims) {
    lines.push(`Licensee:         ${claims.licensee}`);
    lines.push(`Packages:         ${claims.packages.join(', ')}`);
    if (claims.features?.length) lines.push(`Features:         ${claims.features.join(', ')}`);
    lines.push(`Expires:          ${day(claims.exp)}`);
    lines.push(`Releases before:  ${day(claims.releasesBefore ?? claims.exp)} (keep working after expiry)`);
  }
  lines.push(`This release:     ${license.RELEASE_DATE.slice(0, 10)}`);
  lines.push(`Status:           ${overall.valid ? 'valid' : overall.status}: ${overall.message}`);
  const problems: string[] = [];
  for (const name of packages) {
    const check = license.verifyLicenseKey(key, { package: name, ...(options.publicKey ? { publicKey: options.publicKey } : {}) });
    lines.push(`@framework-pro/${name}: ${check.valid ? 'covered' : `${check.status}: ${check.message}`}`);
    if (!check.valid) problems.push(`@framework-pro/${name}: ${check.message}`);
  }
  if (packages.length === 0) lines.push('This project uses no @framework-pro package.');
  return { lines, ok: problems.length === 0, problems };
}

/**
 * The CDK context that carries the license key to the deployed functions: for a project that uses a
 * `@framework-pro/*` package, `FW_LICENSE_KEY` of the deploying environment (a CI secret), else of the project's
 * `.env`. Empty otherwise (an app without pro packages never gets the variable).
 */
export function licenseKeyContext(rootDir: string, env: Readonly<Record<string, string | undefined>> = process.env): Record<string, string> {
  if (proPackagesOf(rootDir).length === 0) return {};
  const { key } = keyOf(rootDir, env, ENV.licenseKey);
  return key ? { [LICENSE_KEY_CONTEXT]: key } : {};
}
