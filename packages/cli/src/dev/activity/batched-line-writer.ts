/** Writers holding lines not yet written, flushed when the process exits (an exit listener can only write synchronously). */
const unflushed = new Set<() => void>();
let exitHookInstalled = false;

/** How long a line may wait for others before it is written: short enough that nobody sees the wait. */
export const LINE_BATCH_MS = 20;
/** Pending text written at once, whatever the time: a burst of lines never piles up in memory. */
const LINE_BATCH_MAX_CHARS = 64 * 1024;

/**
 * A line writer that writes at most once per `intervalMs` (20 ms): under load, one write carries the lines of every
 * request answered meanwhile instead of a system call each (a write per turn of the event loop still cost the dev
 * server's main thread about 4 µs per request at 2,000 requests a second). Lines keep their order; what is pending
 * when the process exits is written then. A line is not acknowledged data: a `kill -9` may lose the last 20 ms.
 */
export function batchedLineWriter(stream: { write(text: string): unknown }, intervalMs = LINE_BATCH_MS): (line: string) => void {
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    unflushed.delete(flush);
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!pending) return;
    const text = pending;
    pending = '';
    stream.write(text);
  };
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const pendingFlush of [...unflushed]) pendingFlush();
    });
  }
  return (line) => {
    pending += `${line}\n`;
    if (pending.length >= LINE_BATCH_MAX_CHARS) return flush();
    if (timer) return;
    unflushed.add(flush);
    // Unref'd: a pending line never keeps the process alive (the exit hook writes it).
    timer = setTimeout(flush, intervalMs).unref();
  };
}
