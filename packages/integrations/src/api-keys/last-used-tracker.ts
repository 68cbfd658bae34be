/**
 * Last-used times without a write per request: each use is noted in memory and written in one statement at most
 * every `intervalMs` (started by a use, so an idle container writes nothing). A failed write is logged and retried
 * with the next batch; the times are a hint for the key's owner, never a reason to fail a request.
 */
export class LastUsedTracker {
  private pending = new Map<string, Date>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly write: (batch: ReadonlyMap<string, Date>) => Promise<void>,
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  note(keyId: string, at: Date): void {
    this.pending.set(keyId, at);
    if (this.timer === undefined) {
      this.timer = setTimeout(() => void this.flush(), this.intervalMs);
      // A pending write never keeps a process (or a test) alive.
      this.timer.unref();
    }
  }

  /** Writes what is pending now (also what `close` does). */
  flush(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return this.flushing ?? Promise.resolve();
    const batch = this.pending;
    this.pending = new Map();
    const previous = this.flushing ?? Promise.resolve();
    this.flushing = previous.then(() =>
      this.write(batch).catch((error: unknown) => {
        for (const [id, at] of batch) if (!this.pending.has(id)) this.pending.set(id, at);
        this.onError(error);
      }),
    );
    return this.flushing;
  }
}
