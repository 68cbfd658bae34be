import * as inspector from 'node:inspector';
import { DevServerError } from '../../errors.js';

/**
 * `fw dev --inspect[=[host:]port]`: opens the Node inspector of the fw dev process itself. Handlers run in worker
 * threads of this process, which a debugger reaches through the same inspector (VS Code and Chrome DevTools list
 * them as workers), and their bundles have linked source maps, so breakpoints set in the TypeScript sources hold.
 * Opened at run time rather than with `node --inspect`, so that no child process (the PGlite engine) inherits it.
 * Returns the WebSocket URL a debugger attaches to.
 */
export function openDebugger(spec: string): string {
  const match = /^(?:(.+):)?(\d+)$/.exec(spec);
  const port = match ? Number(match[2]) : NaN;
  if (!match || port > 65535) throw new DevServerError('FW_ERR_DEV_BAD_ARGUMENT', `--inspect=${spec}: expected [host:]port, e.g. --inspect=9229 or --inspect=127.0.0.1:9230 (0 picks a free port)`);
  const host = match[1] ?? '127.0.0.1';
  // Already open (`node --inspect`, NODE_OPTIONS): that one is the debugger's.
  const open = inspector.url();
  if (open) return open;
  try {
    inspector.open(port, host, false);
  } catch (error) {
    throw new DevServerError('FW_ERR_DEV_BAD_ARGUMENT', `--inspect=${spec}: the debugger could not listen on ${host}:${port} (${(error as Error).message}); pass another port, e.g. --inspect=9230`, { cause: error });
  }
  const url = inspector.url();
  if (!url) throw new DevServerError('FW_ERR_DEV_BAD_ARGUMENT', `--inspect=${spec}: the debugger could not listen on ${host}:${port} (in use?); pass another port, e.g. --inspect=9230`);
  return url;
}
