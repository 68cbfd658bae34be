import * as fs from 'node:fs';
import * as path from 'node:path';
import { runOk } from './processes';
import { startLocalRegistry, type LocalRegistry } from './verdaccio';

/** The packages of this repository, published to a local registry (verdaccio) that proxies everything else. */
export interface LocalRelease {
  readonly registry: LocalRegistry;
  /** Names of the published packages (`@framework/projen` and every public workspace). */
  readonly packages: readonly string[];
}

export interface LocalReleaseOptions {
  /** The repository's root folder. */
  readonly repoRoot: string;
  /** An empty folder for the tarballs and the registry's storage (the caller removes it). */
  readonly workDir: string;
  /** The environment npm and verdaccio run with: a user's shell (its configured registry is the uplink). */
  readonly env: NodeJS.ProcessEnv;
  /** Called after each step with its name and seconds. */
  readonly onStep?: (step: string, seconds: number) => void;
}

/**
 * Packs `@framework/projen` (compiled by jsii first) and every public workspace package, starts verdaccio on a free
 * loopback port with npm's configured registry as its uplink, and publishes the tarballs there with the `dev` tag.
 * The workspace packages must be built (`tsc -b packages`). Used by `npm run registry` and the end-to-end test.
 */
export async function publishLocalRelease(options: LocalReleaseOptions): Promise<LocalRelease> {
  const { repoRoot, workDir, env } = options;
  const step = options.onStep ?? (() => undefined);
  let started = Date.now();
  const tarballs = path.join(workDir, 'tarballs');
  fs.mkdirSync(tarballs, { recursive: true });
  await runOk(path.join(repoRoot, 'node_modules', '.bin', 'jsii'), ['--silence-warnings=reserved-word'], { cwd: repoRoot, env });
  const workspaces = fs
    .readdirSync(path.join(repoRoot, 'packages'))
    .filter((name) => fs.existsSync(path.join(repoRoot, 'packages', name, 'package.json')))
    .filter((name) => !(JSON.parse(fs.readFileSync(path.join(repoRoot, 'packages', name, 'package.json'), 'utf8')) as { private?: boolean }).private);
  await runOk('npm', ['pack', '--silent', '--pack-destination', tarballs, ...workspaces.flatMap((name) => ['-w', `packages/${name}`])], { cwd: repoRoot, env });
  await runOk('npm', ['pack', '--silent', '--pack-destination', tarballs], { cwd: repoRoot, env });
  step(`pack ${workspaces.length + 1} packages`, (Date.now() - started) / 1000);

  started = Date.now();
  const uplink = (await runOk('npm', ['config', 'get', 'registry'], { cwd: workDir, env })).stdout.trim().split('\n').pop() as string;
  const registry = await startLocalRegistry({ verdaccioBin: path.join(repoRoot, 'node_modules', 'verdaccio', 'bin', 'verdaccio'), workDir: path.join(workDir, 'registry'), uplink, env });
  try {
    const publishRc = path.join(workDir, 'publish.npmrc');
    fs.writeFileSync(publishRc, `registry=${registry.url}\n//${new URL(registry.url).host}/:_authToken=${registry.token}\n`);
    const publishEnv = { ...env, npm_config_registry: registry.url, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
    await Promise.all(
      fs
        .readdirSync(tarballs)
        .filter((f) => f.endsWith('.tgz'))
        .map((tarball) => runOk('npm', ['publish', path.join(tarballs, tarball), '--tag', 'dev', '--userconfig', publishRc, '--registry', registry.url], { cwd: workDir, env: publishEnv })),
    );
  } catch (error) {
    await registry.stop();
    throw error;
  }
  step('start the local registry and publish', (Date.now() - started) / 1000);
  const names = [JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).name as string];
  for (const name of workspaces) names.push(JSON.parse(fs.readFileSync(path.join(repoRoot, 'packages', name, 'package.json'), 'utf8')).name as string);
  return { registry, packages: names };
}
