import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Where a running local fake announces itself, relative to the project, in `fw dev`'s data folder: `fw dev` runs
 * functions with the project folder as working directory, so the app's code finds the fake there without an
 * environment variable (the dev server passes functions only the variables the config declares).
 */
export const LOCAL_STRIPE_FILE = path.join('.fw', 'billing', 'local-stripe.json');

/** What the app needs to reach the fake: the adapter's `apiUrl`, `apiKey` and `webhookSecret`. */
export interface LocalStripeConnection {
  readonly apiUrl: string;
  readonly apiKey: string;
  readonly webhookSecret: string;
}

/** Writes the fake's address for the app's code under `projectRoot` (replaced atomically). */
export function announceLocalStripe(projectRoot: string, connection: LocalStripeConnection): string {
  const file = path.join(projectRoot, LOCAL_STRIPE_FILE);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, JSON.stringify(connection), { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
  return file;
}

export function withdrawLocalStripe(projectRoot: string): void {
  rmSync(path.join(projectRoot, LOCAL_STRIPE_FILE), { force: true });
}

/** The announced fake of the project, or undefined when none runs (no file, or one that does not parse). */
export function localStripeConnection(projectRoot: string = process.cwd()): LocalStripeConnection | undefined {
  try {
    const value = JSON.parse(readFileSync(path.join(projectRoot, LOCAL_STRIPE_FILE), 'utf8')) as Partial<LocalStripeConnection>;
    if (typeof value.apiUrl === 'string' && typeof value.apiKey === 'string' && typeof value.webhookSecret === 'string') return { apiUrl: value.apiUrl, apiKey: value.apiKey, webhookSecret: value.webhookSecret };
  } catch {
    // no fake announced
  }
  return undefined;
}
