#!/usr/bin/env node
import * as fs from 'node:fs';
import { closestName, isFrameworkError } from '@framework/core/names';
import { commandHelp, overviewHelp } from '../cli/help.js';
import { parseCommandLine } from '../cli/parse-command-line.js';
import { COMMANDS } from '../commands/registry.js';
import { UsageError } from '../errors.js';
import { packageFile } from '../package-files.js';

function version(): string {
  return (JSON.parse(fs.readFileSync(packageFile('package.json'), 'utf8')) as { version: string }).version;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const all = Object.values(COMMANDS);
  if (name === undefined) {
    process.stderr.write(overviewHelp(all));
    return 2;
  }
  if (name === '--help' || name === '-h') {
    process.stdout.write(overviewHelp(all));
    return 0;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  const topic = name === 'help' ? rest[0] : name;
  if (name === 'help' && topic === undefined) {
    process.stdout.write(overviewHelp(all));
    return 0;
  }
  const entry = COMMANDS[topic!];
  if (!entry) {
    const hint = closestName(topic!, Object.keys(COMMANDS));
    throw new UsageError(`fw: unknown command "${topic}"${hint ? ` (did you mean "${hint}"?)` : ''}. Run "fw --help" for the commands.`);
  }
  // Help wins over everything else on the line (`fw dev --port --help` still shows help).
  if (name === 'help' || rest.some((arg) => arg === '--help' || arg === '-h')) {
    process.stdout.write(commandHelp(entry));
    return 0;
  }
  parseCommandLine(entry, rest);
  const command = await entry.load();
  try {
    return await command.run(rest);
  } catch (error) {
    // A value the command refused (a port out of range, a bad project name) points at the same help as usage errors.
    const e = error as { code?: string; message?: string };
    if (e.code?.endsWith('_BAD_ARGUMENT') && e.message && !/--help|Usage/.test(e.message)) e.message = `${e.message.replace(/\.?$/, '.')} Run "fw ${entry.name} --help" for its usage.`;
    throw error;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // Our errors say what to do; anything else is a bug worth a stack.
    const e = error as { message?: string; stack?: string };
    process.stderr.write(`${isFrameworkError(error) ? `${e.message}\n` : `${e.stack ?? String(error)}\n`}`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  },
);
