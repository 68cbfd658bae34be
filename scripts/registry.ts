/**
 * `npm run registry`: this repository's packages on a local npm registry, so a new project can be created from them
 * in another folder (`fw init`, `projen new --from`) before they are on a public registry. Packs and publishes
 * (`dev` tag) to verdaccio on 127.0.0.1, prints the commands to run, and serves until Ctrl-C.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { publishLocalRelease } from './local-registry/release';

const PROJEN_VERSION = '0.103.25';
const repoRoot = path.resolve(__dirname, '..');

/** A user's shell: none of the variables the npm script that started this set (they would steer npm and projen). */
function shellEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^(npm_|PROJEN_|INIT_CWD$|CI$)/i.test(key)) env[key] = value;
  return env;
}

async function main(): Promise<void> {
  const workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-registry-')));
  const removeWorkDir = () => fs.rmSync(workDir, { recursive: true, force: true });
  process.stdout.write('[registry] packing the packages and starting a local registry (verdaccio)...\n');
  let release;
  try {
    release = await publishLocalRelease({ repoRoot, workDir, env: shellEnv(), onStep: (step, seconds) => process.stdout.write(`[registry] ${step}: ${seconds.toFixed(1)} s\n`) });
  } catch (error) {
    removeWorkDir();
    throw error;
  }
  const url = release.registry.url;
  process.stdout.write(
    [
      '',
      `Local registry: ${url} (everything else is proxied to npm's registry)`,
      `Published with the dev tag: ${release.packages.join(', ')}`,
      '',
      'In another folder, create a project with fw init:',
      `  npx --yes --registry ${url} -p @framework/cli@dev fw init my-app --registry ${url}`,
      'or with projen directly:',
      `  mkdir my-app && cd my-app && npx --yes --registry ${url} projen@${PROJEN_VERSION} new --from @framework/projen@dev --framework-registry ${url}`,
      'then: cd my-app && npm run dev',
      '',
      'Serving until Ctrl-C.',
      '',
    ].join('\n'),
  );
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    process.stdout.write('[registry] stopping\n');
    release.registry.stop().finally(() => {
      removeWorkDir();
      process.exit(0);
    });
  };
  // `on`, not `once`: a signal to the process group (Ctrl-C, a test's stop) can come twice, once straight and once
  // passed on by npm, and the second one, unhandled, would end this process before its folder is removed. (The task
  // runs this file with `node --import tsx`, not under the `tsx` command, which SIGKILLs a child slow to report it
  // got a signal: see .projenrc.ts.)
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: Error) => {
  process.stderr.write(`[registry] failed: ${error.message}\n`);
  process.exit(1);
});
