import type { WatchGate } from './watch-gate.js';

const DEBUG = process.env.FW_DEV_DEBUG === '1';

/** What is out of date: the app model (config files, discovered files) or only the compiled handlers. */
export type Staleness = 'app' | 'handlers';

/** What `Freshness` checks and how it brings things up to date. */
export interface FreshnessSources {
  /**
   * The first input of the app model (a config file, a discovery folder) that changed since the last load, or
   * undefined. With `gate`, inputs the folder watches vouch for are not stat-checked (`WatchGate`).
   */
  appChange(gate?: WatchGate): string | undefined;
  /** The first input of the compiled handler of `file` (of every handler without it) that changed since its last build. */
  handlerChange(file?: string, gate?: WatchGate): string | undefined;
  /** Reloads the app model (then rebuilds the handlers); never rejects. */
  reloadApp(): Promise<void>;
  /** Rebuilds the handlers; never rejects. */
  rebuildHandlers(): Promise<void>;
}

/** Which handlers a check covers: none (the app model only), one handler file, or all. */
type HandlerScope = { readonly kind: 'none' } | { readonly kind: 'file'; readonly file: string } | { readonly kind: 'all' };
const NO_HANDLER: HandlerScope = { kind: 'none' };
const ALL_HANDLERS: HandlerScope = { kind: 'all' };

/** Rounds a request waits while files keep changing, before it is served by the newest build there is. */
const MAX_ROUNDS = 8;

/**
 * Makes sure a request is served by the code on disk when it arrived. Before a request is dispatched, every input of
 * the app model, then of the handler it reaches, is compared (one `stat` each) with its stamp from the last build;
 * if one changed, the request waits for the reload or rebuild. File events only start the same check earlier.
 *
 * One reload or rebuild runs at a time; whoever arrives meanwhile waits for it and checks again, so a burst of saves
 * costs one more build, not one per save. A check that found nothing is reused until the event loop's check phase:
 * requests read from the sockets in the same poll phase were all sent before it ran.
 */
export class Freshness {
  private syncing?: Promise<void>;
  private appCheckedThisTurn = false;
  private readonly handlersCheckedThisTurn = new Set<string>();
  private turnEnding = false;
  private readonly endTurn = () => {
    this.turnEnding = false;
    this.appCheckedThisTurn = false;
    this.handlersCheckedThisTurn.clear();
  };

  /** The project's folder watches, once they are up (`useWatches`). */
  private gate?: WatchGate;
  /** Requests whose file events were delivered before their check (`beforeRequest` with a trusted gate). */
  private readonly delivered = new WeakSet<object>();
  /** Resolves in the check phase of this turn of the event loop (shared by the requests of one poll phase). */
  private checkPhase?: Promise<void>;

  constructor(private readonly sources: FreshnessSources) {}

  /**
   * From now on, inputs in watched folders are stat-checked again only after a change event in their folder: while
   * the gate is trusted a request costs a wait for the check phase and the stats of what the watches do not cover.
   */
  useWatches(gate: WatchGate | undefined): void {
    this.gate = gate;
  }

  /**
   * Called when a request arrives, for the app model (the route table): undefined when it is up to date (the common
   * case costs no promise), else a promise that settles once it is. `request` (any object standing for the request)
   * lets its `beforeInvoke` rely on the watches too.
   */
  beforeRequest(request?: object): Promise<void> | undefined {
    if (this.gate?.trusted && !this.syncing) {
      // The events of saves made before this request was sent are handed over by the end of this poll phase.
      this.checkPhase ??= new Promise((resolve) =>
        setImmediate(() => {
          this.checkPhase = undefined;
          resolve();
        }),
      );
      return this.checkPhase.then(() => {
        if (request) this.delivered.add(request);
        return this.watchedCheck(NO_HANDLER);
      });
    }
    return this.before(NO_HANDLER);
  }

  /**
   * Called before a request reaches the handler of `file`: the app model and that handler, as `beforeRequest`
   * (`request`: the object given to `beforeRequest`).
   */
  beforeInvoke(file: string, request?: object): Promise<void> | undefined {
    if (request && this.gate?.trusted && this.delivered.has(request)) return this.watchedCheck({ kind: 'file', file });
    return this.before({ kind: 'file', file });
  }

  /** The check of `scope` relying on the watches (only once the events sent before the request are delivered). */
  private watchedCheck(scope: HandlerScope): Promise<void> | undefined {
    if (this.syncing) return this.settle(scope);
    const stale = this.staleness(true, scope, this.gate);
    return stale ? this.settle(scope, stale) : undefined;
  }

  /** Checks everything now (a file event, a queue or cron invocation) and brings it up to date. */
  refresh(): Promise<void> {
    return this.settle(ALL_HANDLERS);
  }

  private before(scope: HandlerScope): Promise<void> | undefined {
    if (this.syncing) return this.settle(scope);
    const checkApp = !this.appCheckedThisTurn;
    const checkFile = scope.kind === 'file' && !this.handlersCheckedThisTurn.has(scope.file);
    if (!checkApp && !checkFile) return undefined;
    const stale = this.staleness(checkApp, checkFile ? scope : NO_HANDLER);
    if (stale) return this.settle(scope, stale);
    this.appCheckedThisTurn = true;
    if (checkFile) this.handlersCheckedThisTurn.add((scope as { file: string }).file);
    if (!this.turnEnding) {
      this.turnEnding = true;
      setImmediate(this.endTurn);
    }
    return undefined;
  }

  private staleness(checkApp: boolean, scope: HandlerScope, gate?: WatchGate): Staleness | undefined {
    const app = checkApp ? this.sources.appChange(gate) : undefined;
    if (app) {
      if (DEBUG) process.stderr.write(`[fw:debug] changed: ${app}; reloading the app\n`);
      return 'app';
    }
    if (scope.kind === 'none') return undefined;
    const handler = this.sources.handlerChange(scope.kind === 'file' ? scope.file : undefined, gate);
    if (handler) {
      if (DEBUG) process.stderr.write(`[fw:debug] changed: ${handler}; rebuilding the handlers\n`);
      return 'handlers';
    }
    return undefined;
  }

  private async settle(scope: HandlerScope, known?: Staleness): Promise<void> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      if (this.syncing) {
        await this.syncing;
        continue;
      }
      const stale = known ?? this.staleness(true, scope);
      known = undefined;
      if (!stale) return;
      const work = stale === 'app' ? this.sources.reloadApp() : this.sources.rebuildHandlers();
      this.syncing = work.finally(() => (this.syncing = undefined));
    }
  }
}
