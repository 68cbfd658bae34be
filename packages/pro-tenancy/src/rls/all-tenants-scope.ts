import { AsyncLocalStorage } from 'node:async_hooks';

/** The reason of the `asAllTenants` call the running code is inside, if any. */
const allTenants = new AsyncLocalStorage<string>();

/** @internal The reason of the enclosing `asAllTenants`, or undefined. */
export function allTenantsReason(): string | undefined {
  return allTenants.getStore();
}

/** @internal Runs `fn` as cross-tenant work. */
export function runAsAllTenants<T>(reason: string, fn: () => T): T {
  return allTenants.run(reason, fn);
}
