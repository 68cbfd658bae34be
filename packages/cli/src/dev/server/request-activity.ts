/**
 * The app's requests in flight and when the last one ended: fw dev's own background work (loading every route after
 * start, a worker thread and seconds of CPU each) runs only while nobody is waiting for an answer, so on a small
 * machine it never competes with requests for the CPU.
 */
export class RequestActivity {
  private inFlight = 0;
  private lastEnded = 0;

  /** Follows one request until it is answered (or fails). */
  track<T>(serving: Promise<T>): Promise<T> {
    this.inFlight++;
    const ended = () => {
      this.inFlight--;
      this.lastEnded = performance.now();
    };
    serving.then(ended, ended);
    return serving;
  }

  /** Whether a request is in flight or one ended less than `quietMs` ago. */
  busy(quietMs: number): boolean {
    return this.inFlight > 0 || performance.now() - this.lastEnded < quietMs;
  }

  /**
   * Resolves once no request has been in flight for `quietMs` (at once when none came for that long). `stop` ends
   * the wait early (fw dev stopping).
   */
  async quiet(quietMs: number, stop: () => boolean = () => false): Promise<void> {
    while (!stop() && this.busy(quietMs)) {
      const left = this.inFlight > 0 ? quietMs : quietMs - (performance.now() - this.lastEnded);
      await new Promise((resolve) => setTimeout(resolve, Math.max(1, Math.min(quietMs, left))).unref());
    }
  }
}
