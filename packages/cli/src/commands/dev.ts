import { parseCommandLine, usageError } from '../cli/parse-command-line.js';
import { DevServerError } from '../errors.js';
import { COMMANDS } from './registry.js';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DevServer } from '../dev/dev-server.js';
import type { EnginePreferences } from '../dev/engines/index.js';
import { enableCompileCache } from '../cloud/compile-cache.js';
import { startEarlyThread } from '../dev/functions/early-thread.js';

interface DevArguments {
  port: number;
  host: string;
  stage: string;
  engines: EnginePreferences;
  quiet: boolean;
  typecheck: boolean;
  inspect?: string;
}

type ParseEngines = (text: string) => EnginePreferences;

function parse(argv: readonly string[], parseEnginePreferences: ParseEngines): DevArguments {
  const { values, positionals } = parseCommandLine(COMMANDS.dev!, argv);
  if (positionals.length) throw usageError('dev', `unexpected argument "${positionals[0]}" (fw dev serves the project in the current folder)`);
  const args: DevArguments = { port: 3000, host: (values.host as string | undefined) ?? '127.0.0.1', stage: (values.stage as string | undefined) ?? 'dev', engines: process.env.FW_DEV_ENGINES ? parseEnginePreferences(process.env.FW_DEV_ENGINES) : {}, quiet: values.quiet === true, typecheck: values['no-typecheck'] !== true };
  if (typeof values.inspect === 'string') args.inspect = values.inspect;
  const port = values.port as string | undefined;
  if (port !== undefined) {
    if (!/^\d+$/.test(port) || Number(port) > 65535) throw new DevServerError('FW_ERR_DEV_BAD_ARGUMENT', `--port ${port}: expected a port number 0-65535 (0 picks a free one)`);
    args.port = Number(port);
  }
  for (const engine of (values.engine as readonly string[] | undefined) ?? []) args.engines = { ...args.engines, ...parseEnginePreferences(engine) };
  return args;
}

/** `fw dev`: serves the project in the current folder until Ctrl-C. */
export async function run(argv: string[]): Promise<number> {
  // The first function thread boots while the dev server's modules load (`startEarlyThread`); not under --inspect,
  // whose debugger is opened before any function thread starts.
  const early = argv.some((arg) => arg === '--inspect' || arg.startsWith('--inspect=')) ? undefined : startEarlyThread(path.join(process.cwd(), '.fw', 'dev', 'build'));
  // V8's compiled code of the packages the dev server loads as CommonJS (Fastify and its plugins, io-ts, fp-ts: about
  // 150 files), kept from the previous run in .fw/compile-cache, with the functions compiled lazily while it ran: about
  // 20 ms of a 0.4 s launch. Only in a project fw dev has run in (a start that fails, a taken port, writes nothing).
  if (fs.existsSync(path.join(process.cwd(), '.fw'))) enableCompileCache(process.cwd());
  let args: DevArguments;
  let server: DevServer;
  try {
    // The dev server's modules load here, not with the command: the early thread is already booting meanwhile.
    const [{ DevServer }, { parseEnginePreferences }] = await Promise.all([import('../dev/dev-server.js'), import('../dev/engines/index.js')]);
    args = parse(argv, parseEnginePreferences);
    if (args.inspect !== undefined) {
      // Loaded only with --inspect: node:inspector and the debugger's set-up are nothing a plain `fw dev` needs.
      const { openDebugger } = await import('../dev/debugger/index.js');
      const url = openDebugger(args.inspect);
      process.stdout.write(`[fw] debugger listening at ${url} (handlers run in its worker threads; see "Debugging" in the @framework/cli README)\n`);
    }
    server = await DevServer.start({ rootDir: process.cwd(), port: args.port, host: args.host, stage: args.stage, engines: args.engines, typecheck: args.typecheck, ...(args.quiet ? { activityLog: false as const } : {}), ...(early ? { firstThread: early } : {}) });
  } catch (error) {
    // Unused when the start failed before the host took it (a bad argument, a taken port, a config that does not load).
    await early?.worker.terminate();
    throw error;
  }
  process.stdout.write(`[fw] serving at ${server.url}\n`);
  return new Promise<number>((resolve) => {
    const shutdown = () => {
      process.stdout.write('[fw] stopping\n');
      const exit = (code: number) => {
        resolve(code);
        // Engines' libraries (esbuild's service, PGlite) may hold handles a moment after stopping: do not wait on them.
        setTimeout(() => process.exit(code), 200).unref();
      };
      server.stop().then(
        () => exit(0),
        (error: Error) => {
          process.stderr.write(`[fw] stop failed: ${error.message}\n`);
          exit(1);
        },
      );
    };
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
  });
}
