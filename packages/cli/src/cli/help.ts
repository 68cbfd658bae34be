import type { CommandSpec, OptionSpec } from './command-spec.js';

const HELP_OPTION: OptionSpec = { name: 'help', short: 'h', type: 'boolean', description: 'Show this help' };

function optionLabel(option: OptionSpec): string {
  const value = option.type === 'string' ? (option.optionalValue !== undefined ? `[=${option.valueName ?? 'value'}]` : ` <${option.valueName ?? 'value'}>`) : '';
  return `${option.short ? `-${option.short}, ` : '    '}--${option.name}${value}`;
}

function columns(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`);
}

/** `fw <command> --help`: usage, subcommands, every option with its default, examples. */
export function commandHelp(spec: CommandSpec): string {
  const usage = `fw ${spec.name}${spec.subcommands ? ' [<subcommand>]' : ''}${spec.positionals ? ` ${spec.positionals}` : ''} [options]`;
  const lines = [`${spec.summary}`, '', `Usage: ${usage}`];
  if (spec.subcommands) lines.push('', 'Subcommands:', ...columns(spec.subcommands.map((s) => [s.usage, s.description])));
  lines.push(
    '',
    'Options:',
    ...columns([...spec.options, HELP_OPTION].map((o) => [optionLabel(o), `${o.description}${o.default !== undefined ? ` (default: ${o.default})` : ''}`])),
  );
  if (spec.examples?.length) lines.push('', 'Examples:', ...spec.examples.map((e) => `  ${e}`));
  return `${lines.join('\n')}\n`;
}

/** `fw --help`: every command with its summary and options. */
export function overviewHelp(commands: readonly CommandSpec[]): string {
  const lines = ['Usage: fw <command> [options]', '', 'Commands:'];
  const width = Math.max(...commands.map((c) => c.name.length));
  for (const command of commands) {
    lines.push(`  ${command.name.padEnd(width)}  ${command.summary}`);
    const options = command.options.map((o) => `--${o.name}${o.type === 'string' ? (o.optionalValue !== undefined ? `[=${o.valueName ?? 'value'}]` : ` <${o.valueName ?? 'value'}>`) : ''}`);
    const head = `fw ${command.name}${command.subcommands ? ` [${command.subcommands.map((s) => s.usage.split(' ')[0]).join('|')}]` : ''}${command.positionals ? ` ${command.positionals}` : ''}`;
    lines.push(`  ${' '.repeat(width)}  ${[head, ...options.map((o) => `[${o}]`)].join(' ')}`);
  }
  lines.push('', 'Global options:', '  -h, --help     Show help (also: fw help <command>, fw <command> --help)', '  -v, --version  Print the version of fw', '');
  return lines.join('\n');
}
