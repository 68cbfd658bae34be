/**
 * The shape of one row of `fw`'s command table (`commands/registry.ts`). Help, "did you mean" and the checking of
 * option names and values all come from it, so an option cannot be accepted without being documented.
 */
export interface OptionSpec {
  /** Long name without the dashes (`port` for `--port`). */
  readonly name: string;
  /** One-letter alias without the dash. */
  readonly short?: string;
  /** Other long names accepted (not shown in help). */
  readonly aliases?: readonly string[];
  /** `string` takes a value (`--port 3000` or `--port=3000`); `boolean` takes none. */
  readonly type: 'string' | 'boolean';
  /** How help names the value: `--port <port>`. @default 'value' */
  readonly valueName?: string;
  /**
   * The value when the option is given without one (`--inspect` means `--inspect=9229`); a value then only comes
   * with `=`, so the next word stays a positional.
   */
  readonly optionalValue?: string;
  /** May be given more than once. @default false */
  readonly multiple?: boolean;
  /** What happens without the option, as help prints it. */
  readonly default?: string;
  readonly description: string;
}

export interface SubcommandSpec {
  /** `create <name>`: the subcommand and its positionals, as help prints it. */
  readonly usage: string;
  readonly description: string;
}

export interface CommandSpec {
  readonly name: string;
  readonly summary: string;
  /** Positionals after the command name, as help prints them (`<project_name>`). */
  readonly positionals?: string;
  readonly subcommands?: readonly SubcommandSpec[];
  readonly options: readonly OptionSpec[];
  readonly examples?: readonly string[];
}
