import type { ResourceLimits } from 'node:worker_threads';

/** The error type Lambda reports when a function runs out of memory (its runtime is killed mid-invocation). */
export const OUT_OF_MEMORY_ERROR_TYPE = 'Runtime.OutOfMemory';

/**
 * The heap limits of a function's worker thread, as Lambda's Node.js runtime sets them from the function's
 * `memorySize`. Its bootstrap gives a tenth of the memory to the young generation and the rest to the old one, passed
 * as `--max-semi-space-size=<tenth / 2>` and `--max-old-space-size=<memory - tenth>`. V8's young generation is three
 * semi-spaces (two, plus as much again for large new objects), so a worker gets three times that semi-space. With
 * `maxYoungGenerationSizeMb` at the tenth itself, V8 made its semi-spaces a third of it: at 128, 192 or 384 MB (V8
 * rounds a semi-space to a power of two) half of Lambda's, and the thread scavenged twice as often as the deployed
 * function does.
 * A worker past the old generation's limit is ended by Node (the rest of `fw dev` keeps running), as Lambda ends a
 * function past its memory.
 */
export function workerResourceLimits(memorySize: number): ResourceLimits {
  const tenth = Math.floor(memorySize / 10);
  const semiSpace = Math.max(1, Math.floor(tenth / 2));
  return { maxYoungGenerationSizeMb: 3 * semiSpace, maxOldGenerationSizeMb: memorySize - tenth };
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
