/**
 * Every `fw` command, one file each under `commands/`. Commands are loaded on use so `fw --help` stays fast and
 * `fw dev` never loads CDK.
 */
export interface CommandModule {
  /** Runs the command with its own arguments (after the command name); resolves to the exit code. */
  run(argv: string[]): Promise<number>;
}

export interface CommandEntry {
  readonly summary: string;
  readonly usage: string;
  readonly load: () => Promise<CommandModule>;
}

export const COMMANDS: Record<string, CommandEntry> = {
  init: { summary: 'Create a project from a template and install its dependencies', usage: 'fw init <project_name> [--template <t>] [--yes]', load: () => import('./init.js') },
  dev: { summary: 'Run every route, queue, cron and function locally', usage: 'fw dev [--port 3000] [--host 127.0.0.1] [--stage dev]', load: () => import('./dev.js') },
  g: { summary: 'Generate a route file', usage: 'fw g route "<path>" -m <method> [--scopes <scope>]', load: () => import('./generate.js') },
  synth: { summary: 'Write the cloud assembly of a stage', usage: 'fw synth [--stage dev] [--out cdk.out] [--no-checks]', load: () => import('./synth.js') },
  deploy: { summary: 'Deploy a stage (dev unless --stage)', usage: 'fw deploy [--stage dev] [--bootstrap] [--no-checks]', load: () => import('./deploy.js') },
  diff: { summary: 'Show what a deploy would change', usage: 'fw diff [--stage dev] [--no-checks]', load: () => import('./diff.js') },
  destroy: { summary: 'Delete a deployed stage', usage: 'fw destroy [--stage dev] [--yes]', load: () => import('./destroy.js') },
  migrate: { summary: 'Apply, list or create database migrations', usage: 'fw migrate [status|create <name>] [--stage dev]', load: () => import('./migrate.js') },
};
