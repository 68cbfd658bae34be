import { DevServerError } from '../errors.js';
import { DevServer } from '../dev/dev-server.js';
import { parseEnginePreferences, type EnginePreferences } from '../dev/engines/index.js';

interface DevArguments {
  port: number;
  host: string;
  stage: string;
  engines: EnginePreferences;
}

function parse(argv: readonly string[]): DevArguments {
  const args: DevArguments = { port: 3000, host: '127.0.0.1', stage: 'dev', engines: process.env.FW_DEV_ENGINES ? parseEnginePreferences(process.env.FW_DEV_ENGINES) : {} };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=') && arg.startsWith('--') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new DevServerError('FW_ERR_DEV_BAD_ARGUMENT', `${flag} needs a value (fw dev [--port 3000] [--host 127.0.0.1] [--stage dev] [--engine databases=embedded])`);
      return v;
    };
    switch (flag) {
      case '--port':
      case '-p': {
        const text = value();
        const port = Number(text);
        if (!/^\d+$/.test(text) || port > 65535) throw new DevServerError('FW_ERR_DEV_BAD_ARGUMENT', `--port ${text}: expected a port number 0-65535 (0 picks a free one)`);
        args.port = port;
        break;
      }
      case '--host':
        args.host = value();
        break;
      case '--stage':
        args.stage = value();
        break;
      case '--engine':
        args.engines = { ...args.engines, ...parseEnginePreferences(value()) };
        break;
      default:
        throw new DevServerError('FW_ERR_DEV_BAD_ARGUMENT', `unknown option ${arg}; usage: fw dev [--port 3000] [--host 127.0.0.1] [--stage dev] [--engine <intent>=<container|native|embedded>]`);
    }
  }
  return args;
}

/** `fw dev`: serves the project in the current folder until Ctrl-C. */
export async function run(argv: string[]): Promise<number> {
  const args = parse(argv);
  const server = await DevServer.start({ rootDir: process.cwd(), port: args.port, host: args.host, stage: args.stage, engines: args.engines });
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
