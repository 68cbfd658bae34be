import { notBuiltYet } from './not-built-yet.js';

/** `fw init`: owned by the issue that builds it; until then it says so and exits non-zero. */
export async function run(_argv: string[]): Promise<number> {
  return notBuiltYet('init');
}
