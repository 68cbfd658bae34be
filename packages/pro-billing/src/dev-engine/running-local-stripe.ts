import * as path from 'node:path';
import type { LocalStripe } from '../local/local-stripe.js';

/**
 * The fakes fw dev's billing engine runs in this process, by project folder (a test drives the one of its app). On
 * `globalThis` under a registered symbol: the CLI loads this module as ESM from the app's folder while a test may load
 * its own copy (a CommonJS transform of the same file), and both must see one registry.
 */
const REGISTRY = Symbol.for('@framework-pro/billing:running-local-stripe');
const running: Map<string, LocalStripe> = ((globalThis as Record<symbol, unknown>)[REGISTRY] as Map<string, LocalStripe> | undefined) ?? new Map<string, LocalStripe>();
(globalThis as Record<symbol, unknown>)[REGISTRY] = running;

export function rememberRunningLocalStripe(rootDir: string, fake: LocalStripe): void {
  running.set(path.resolve(rootDir), fake);
}

export function forgetRunningLocalStripe(rootDir: string, fake: LocalStripe): void {
  if (running.get(path.resolve(rootDir)) === fake) running.delete(path.resolve(rootDir));
}

/**
 * The local Stripe fake that fw dev's billing engine started in this process for the project at `rootDir` (the
 * testing package runs fw dev in the test's process): a test closes the provider's periods, waits for its webhooks
 * and reads its meter events through it. Undefined when none runs.
 */
export function runningLocalStripe(rootDir: string = process.cwd()): LocalStripe | undefined {
  return running.get(path.resolve(rootDir));
}
