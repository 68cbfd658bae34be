/** Something that keeps part of the app from running: a handler that does not compile or load, a config that does not. */
export interface DevProblem {
  /** `compile`: the handler file does not build; `load`: it threw while imported; `config`: the app did not reload. */
  readonly kind: 'compile' | 'load' | 'config';
  /** The handler file (relative to the project), or `fw.config.ts` for the config. */
  readonly file: string;
  readonly message: string;
  /** When it was seen (ISO). */
  readonly time: string;
}

/**
 * What is broken right now, by file, for the console's banner and Errors tab (the terminal prints the same). A
 * problem is replaced by the next outcome of the same file: a build or load that succeeds clears it.
 */
export class DevProblems {
  private readonly problems = new Map<string, DevProblem>();

  set(file: string, problem: { kind: DevProblem['kind']; message: string } | undefined): void {
    if (problem) this.problems.set(file, { kind: problem.kind, file, message: problem.message, time: new Date().toISOString() });
    else this.problems.delete(file);
  }

  /** Forgets the problems of handler files no longer in the app (deleted, or no longer a unit). */
  retain(files: ReadonlySet<string>): void {
    for (const [file, problem] of this.problems) if (problem.kind !== 'config' && !files.has(file)) this.problems.delete(file);
  }

  list(): DevProblem[] {
    return [...this.problems.values()];
  }
}
