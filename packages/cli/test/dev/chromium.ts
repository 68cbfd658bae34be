import { execFileSync } from 'node:child_process';

/** The machine's Chromium (Debian's `chromium` package; `.ci/prepare-machine` installs it): playwright-core downloads none. */
export function findChromium(): string | undefined {
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      const found = execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
      if (found) return found;
    } catch {
      // not on PATH
    }
  }
  return undefined;
}
