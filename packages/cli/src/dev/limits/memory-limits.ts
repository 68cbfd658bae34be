import type { ResourceLimits } from 'node:worker_threads';

/** The error type Lambda reports when a function runs out of memory (its runtime is killed mid-invocation). */
export const OUT_OF_MEMORY_ERROR_TYPE = 'Runtime.OutOfMemory';

/**
 * The heap limits of a function's worker thread, as Lambda's Node.js runtime sets them from the function's
 * `memorySize`: a tenth for the young generation, the rest for the old one. A worker past them is ended by Node (the
 * rest of `fw dev` keeps running), as Lambda ends a function past its memory.
 */
export function workerResourceLimits(memorySize: number): ResourceLimits {
  const young = Math.max(1, Math.floor(memorySize / 10));
  return { maxYoungGenerationSizeMb: young, maxOldGenerationSizeMb: memorySize - young };
}

/** The terminal's explanation, naming the function, its memorySize and the fix. */
export function outOfMemoryMessage(unitId: string, memorySize: number, usedBytes?: number): string {
  const used = usedBytes ? ` (it held ${Math.round(usedBytes / (1024 * 1024))} MB)` : '';
  return (
    `${unitId} ran out of memory${used}: its memorySize is ${memorySize} MB, and Lambda ends a function that uses more. ` +
    `The invocation failed as it would deployed (${OUT_OF_MEMORY_ERROR_TYPE}; the gateway answers 500) and the next one gets a fresh instance. ` +
    `Raise memorySize for it (the function's entry in fw.config.ts, or the stage's functions.memorySize), or use less: stream or page large data.`
  );
}
