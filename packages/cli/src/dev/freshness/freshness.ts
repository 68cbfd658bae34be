const DEBUG = process.env.FW_DEV_DEBUG === '1';

/** What is out of date: the app model (config files, discovered files) or only the compiled handlers. */
export type Staleness = 'app' | 'handlers';

/** What `Freshness` checks and how it brings things up to date. */
export interface FreshnessSources {
  /** The first input of the app model (a config file, a discovery folder) that changed since the last load, or undefined. */
  appChange(): string | undefined;
  /** The first input of a compiled handler that changed since its last build, or undefined. */
  handlerChange(): string | undefined;
  /** Reloads the app model (then rebuilds the handlers); never rejects. */
  reloadApp(): Promise<void>;
  /** Rebuilds the handlers; never rejects. */
  rebuildHandlers(): Promise<void>;
}

/** Rounds a request waits while files keep changing, before it is served by the newest build there is. */
const MAX_ROUNDS = 8;

/**
 * Makes sure a request is served by the code on disk when it arrived. Before a request is dispatched, every input of
 * the app model and of the compiled handlers is compared (one `stat` each) with its stamp from the last build; if
 * one changed, the request waits for the reload or rebuild. File events only start the same check earlier.
 *
 * One reload or rebuild runs at a time; whoever arrives meanwhile waits for it and checks again, so a burst of saves
 * costs one more build, not one per save. A check that found nothing is reused until the event loop's check phase:
 * requests read from the sockets in the same poll phase were all sent before it ran.
 */
export class Freshness {
  private syncing?: Promise<void>;
  private checkedThisTurn = false;
  private readonly endTurn = () => {
    this.checkedThisTurn = false;
  };

  constructor(private readonly sources: FreshnessSources) {}

  /**
   * Called when a request arrives: undefined when everything is up to date (the common case costs no promise), else
   * a promise that settles once it is.
   */
  beforeRequest(): Promise<void> | undefined {
    if (this.syncing) return this.settle();
    if (this.checkedThisTurn) return undefined;
    const stale = this.staleness();
    if (!stale) {
      this.checkedThisTurn = true;
      setImmediate(this.endTurn);
      return undefined;
    }
    return this.settle(stale);
  }

  /** Checks now (a file event, a queue or cron invocation) and brings things up to date. */
  refresh(): Promise<void> {
    return this.settle();
  }

  private staleness(): Staleness | undefined {
    const app = this.sources.appChange();
    if (app) {
      if (DEBUG) process.stderr.write(`[fw:debug] changed: ${app}; reloading the app\n`);
      return 'app';
    }
    const handler = this.sources.handlerChange();
    if (handler) {
      if (DEBUG) process.stderr.write(`[fw:debug] changed: ${handler}; rebuilding the handlers\n`);
      return 'handlers';
    }
    return undefined;
  }

  private async settle(known?: Staleness): Promise<void> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      if (this.syncing) {
        await this.syncing;
        continue;
      }
      const stale = known ?? this.staleness();
      known = undefined;
      if (!stale) return;
      const work = stale === 'app' ? this.sources.reloadApp() : this.sources.rebuildHandlers();
      this.syncing = work.finally(() => (this.syncing = undefined));
    }
  }
}
