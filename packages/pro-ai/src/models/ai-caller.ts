import { AsyncLocalStorage } from 'node:async_hooks';

/** Who the model calls running now are made for (beyond the tenant, which the runtime carries). */
interface AiCaller {
  readonly userId?: string;
}

const callerScope = new AsyncLocalStorage<AiCaller>();

/**
 * Runs `fn` with `userId` as the user that model calls inside it are made for: counted against that user's budget
 * and reported with their usage. `generate`, `stream` and agents do this with their `user` option; use it around
 * your own ai SDK calls on `model.languageModel`.
 */
export function runForAiUser<T>(userId: string | undefined, fn: () => T): T {
  return callerScope.run(userId === undefined ? {} : { userId }, fn);
}

/** The user of the model calls running now, if one was given. */
export function currentAiUser(): string | undefined {
  return callerScope.getStore()?.userId;
}
