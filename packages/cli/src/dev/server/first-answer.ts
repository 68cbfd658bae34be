/**
 * The dev server's first route request, followed from its arrival to its answer: work that the first request does
 * not need (loading every route for the start-up table, booting spare threads) waits until it is answered, so it
 * does not compete with it for the CPU.
 */
export class FirstAnswer {
  private arrived = false;
  private signalArrival!: () => void;
  private signalAnswer!: () => void;
  private readonly arrival = new Promise<void>((resolve) => (this.signalArrival = resolve));
  private readonly answer = new Promise<void>((resolve) => (this.signalAnswer = resolve));

  /** Follows one route request: the first one to arrive is the one waited for. */
  track<T>(serving: Promise<T>): Promise<T> {
    if (!this.arrived) {
      this.arrived = true;
      this.signalArrival();
      void serving.then(this.signalAnswer, this.signalAnswer);
    }
    return serving;
  }

  /**
   * Resolves once the first request is answered; or after `graceMs` when none arrived by then (a server nobody
   * calls yet still warms up).
   */
  async settled(graceMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const arrived = await Promise.race([this.arrival.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs)))]);
    clearTimeout(timer);
    if (arrived) await this.answer;
  }
}
