/**
 * Seconds until the next attempt after `attempt` failed: exponential from `baseSeconds`, capped, with full jitter
 * (`random` in [0, 1)) so rows that failed together do not retry together.
 */
export function retryDelaySeconds(attempt: number, options: { readonly baseSeconds: number; readonly maxSeconds: number }, random: () => number = Math.random): number {
  const ceiling = Math.min(options.maxSeconds, options.baseSeconds * 2 ** Math.max(0, attempt - 1));
  return Math.max(options.baseSeconds / 2, ceiling * random());
}
