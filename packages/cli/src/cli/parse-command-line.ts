import { parseArgs } from 'node:util';
import { closestName } from '@framework/core/names';
import { UsageError } from '../errors.js';
import type { CommandSpec, OptionSpec } from './command-spec.js';

export type OptionValues = Readonly<Record<string, string | boolean | readonly string[] | undefined>>;

export interface CommandLine {
  /** By the option's long name; repeated options (`multiple`) are arrays; absent options are undefined. */
  readonly values: OptionValues;
  readonly positionals: readonly string[];
}

/** ` (did you mean --port?)`, or nothing when no known word is close. */
export function didYouMean(word: string, known: readonly string[]): string {
  const hint = closestName(word, [...known]);
  return hint ? ` (did you mean ${hint}?)` : '';
}

/** The usage error of `fw <command>`, in the one wording every usage error of fw has. */
export function usageError(command: string, problem: string): UsageError {
  return new UsageError(`fw ${command}: ${problem}. Run "fw ${command} --help" for its usage.`);
}

function flagOf(option: OptionSpec): string {
  return `--${option.name}`;
}

/**
 * Checks `argv` against the command's table row with Node's own parser (`util.parseArgs`, tokens mode) and turns
 * every problem (unknown option, missing value, value given to a switch) into a `UsageError` that names the
 * option, suggests the nearest known one and points at `--help`.
 */
export function parseCommandLine(spec: CommandSpec, argv: readonly string[]): CommandLine {
  const byName = new Map<string, OptionSpec>();
  for (const option of spec.options) {
    byName.set(option.name, option);
    for (const alias of option.aliases ?? []) byName.set(alias, option);
    if (option.short) byName.set(option.short, option);
  }
  // `--inspect` alone means its default value; `--inspect=9230` carries one.
  const args = argv.map((arg) => {
    const option = arg.startsWith('--') && !arg.includes('=') ? byName.get(arg.slice(2)) : undefined;
    return option?.optionalValue !== undefined ? `${arg}=${option.optionalValue}` : arg;
  });
  const { tokens } = parseArgs({ args, strict: false, allowPositionals: true, tokens: true, options: parserOptions(spec.options) });
  const values: Record<string, string | boolean | string[] | undefined> = Object.create(null);
  const positionals: string[] = [];
  const known = spec.options.flatMap((o) => [flagOf(o), ...(o.aliases ?? []).map((a) => `--${a}`)]);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind === 'positional') {
      positionals.push(token.value);
      continue;
    }
    if (token.kind === 'option-terminator') continue;
    const option = byName.get(token.name);
    if (!option) throw usageError(spec.name, `unknown option ${token.rawName}${didYouMean(token.rawName, known)}`);
    if (option.type === 'boolean') {
      if (token.value !== undefined) throw usageError(spec.name, `${token.rawName} takes no value (got "${token.value}")`);
      values[option.name] = true;
      continue;
    }
    const value = token.value;
    // Loose parseArgs takes `--stage --yes` as stage "--yes": that is a missing value (`--stage=-x` still works).
    if (value === undefined || (!token.inlineValue && value.startsWith('-'))) throw usageError(spec.name, `${token.rawName} needs a value: ${token.rawName} <${option.valueName ?? 'value'}>`);
    if (option.multiple) values[option.name] = [...((values[option.name] as string[] | undefined) ?? []), value];
    else values[option.name] = value;
  }
  return { values, positionals };
}

function parserOptions(options: readonly OptionSpec[]): Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> {
  const config: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {};
  for (const option of options) {
    config[option.name] = { type: option.type, ...(option.short ? { short: option.short } : {}) };
    for (const alias of option.aliases ?? []) config[alias] = { type: option.type };
  }
  return config;
}
