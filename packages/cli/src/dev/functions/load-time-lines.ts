/** How many distinct load-time lines are remembered; past that, every line is shown (memory stays bounded). */
const REMEMBERED = 1_000;

/** The thread a line came from, as `LoadTimeLines` needs it. */
export interface LineSource {
  /** The request id of the thread's latest invocation; undefined while it has not run one (it is loading). */
  readonly lastRequestId?: string;
  /** The function whose handler the thread runs; undefined for a spare thread (it only imports packages). */
  readonly functionName?: string;
}

/**
 * Which lines a function thread writes while it loads (before its first invocation) the terminal shows.
 *
 * Every function is a thread of its own, and every thread loads its packages, so a package that says something when
 * it is imported says it once per thread: a pro package without a license key printed its notice 49 times in the
 * example's first 30 seconds, burying the lines the developer needs. Deployed, each function says it once in its own
 * log group: once per place the developer reads it, which is what this keeps. So a load-time line is shown the first
 * time in a run, and then again only from the function that showed it (a handler's own line at import, shown at
 * each reload after a save); from any other thread it is not shown again. Lines written during an invocation are all
 * shown (a handler's log lines are per request), and the dev console keeps every line of every function (the
 * `LogLineTap` sees them all).
 */
export class LoadTimeLines {
  /** Each line shown, with the functions that showed it. */
  private readonly shown = new Map<string, Set<string>>();

  /** Whether the terminal shows `line`, written by `source`. */
  show(line: string, source: LineSource): boolean {
    if (source.lastRequestId !== undefined || line.trim() === '') return true;
    const showers = this.shown.get(line);
    if (showers === undefined) {
      if (this.shown.size < REMEMBERED) this.shown.set(line, new Set(source.functionName === undefined ? [] : [source.functionName]));
      return true;
    }
    return source.functionName !== undefined && showers.has(source.functionName);
  }
}
