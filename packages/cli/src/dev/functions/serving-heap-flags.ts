import * as v8 from 'node:v8';

/**
 * The V8 flags fw dev sets once it has started (every route loaded, the start-up table printed), for its serving:
 * process-wide, so for the function threads and the HTTP side alike. Only flags V8 reads as it goes are set at run
 * time: `--single-threaded-gc`, tried too, made V8 abort, since a heap set up for concurrent marking must keep it.
 *
 * `--no-allocation-site-pretenuring`: fw dev serves every concurrent invocation of a function from one thread, where
 * Lambda runs one instance per invocation. With ten requests in flight, many of the objects a scavenge finds alive
 * come from the same allocation sites (the rows `pg` parses, their dates), and V8 then allocated those in the old
 * generation directly. On GET /tasks (20 rows, 10 connections, 2 cores, native PostgreSQL) the function's thread
 * promoted about 13 KB per request, took 2 to 5 ms per scavenge instead of 0.5, marked its 25 MB heap about twice a
 * second, and V8's helper threads spent 67 to 82 µs of CPU per request on it. Without pretenuring: 20 to 24 µs, and
 * the whole process 405 to 423 µs per request instead of 464 to 500; on PGlite 559 µs instead of 767. Deployed, one
 * invocation at a time leaves too few survivors for V8 to pretenure them in the first place.
 * Not from the start: while modules load, pretenuring is what keeps their long-lived objects from being copied twice
 * (with it off from the first line, launch to first 200 took 588 ms instead of 459).
 */
export const SERVING_V8_FLAGS: readonly string[] = ['--no-allocation-site-pretenuring'];

/** Sets `SERVING_V8_FLAGS` (once is enough; again changes nothing). */
export function useServingHeapFlags(): void {
  for (const flag of SERVING_V8_FLAGS) v8.setFlagsFromString(flag);
}
