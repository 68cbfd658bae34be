#!/usr/bin/env node
import { COMMANDS } from '../commands/registry.js';

function help(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  return ['Usage: fw <command> [options]', '', 'Commands:', ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}\n  ${' '.repeat(width)}  ${c.usage}`)].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${help()}\n`);
    return name ? 0 : 1;
  }
  const entry = COMMANDS[name];
  if (!entry) {
    process.stderr.write(`fw: unknown command "${name}"\n\n${help()}\n`);
    return 1;
  }
  const command = await entry.load();
  return command.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // Errors with a code are ours and their message says what to do; anything else is a bug worth a stack.
    const e = error as { code?: string; message?: string; stack?: string };
    process.stderr.write(`${e.code?.startsWith('FW_ERR') ? `${e.message}\n` : `${e.stack ?? String(error)}\n`}`);
    process.exitCode = 1;
  },
);
