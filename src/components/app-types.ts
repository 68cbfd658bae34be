import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Component, Project } from 'projen';

/**
 * The app's generated types (`.fw/types/app.d.ts`: queue, function, bucket and database ids and the declared scopes,
 * for the type checker). They come from the app model, which only `fw` can load (it discovers `src/`), so this runs
 * `fw types` after projen installed the dependencies; the project's tsconfig includes the folder, and `typecheck`
 * runs `fw types` first, so a fresh clone type-checks. `.fw/` is not committed.
 */
export class AppTypes extends Component {
  /** The generated declaration, relative to the project folder. */
  public static readonly FILE = '.fw/types/app.d.ts';
  /** The tsconfig `include` entry of the generated declarations. */
  public static readonly INCLUDE = '.fw/types/**/*.d.ts';

  constructor(project: Project) {
    super(project);
  }

  public postSynthesize(): void {
    const fw = path.join(this.project.outdir, 'node_modules', '.bin', 'fw');
    // Before the first install (or with --no-post installs skipped) there is no fw yet: the first fw dev writes them.
    if (!fs.existsSync(fw)) return;
    try {
      execFileSync(fw, ['types'], { cwd: this.project.outdir, stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (error) {
      // An app that does not load right now (a config being edited) must not stop projen: say it, go on.
      const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
      this.project.logger.warn(`${AppTypes.FILE} was not written (fw types failed${stderr ? `: ${stderr.split('\n').slice(-3).join(' ')}` : ''}); fw dev writes it once the app loads`);
    }
  }
}
