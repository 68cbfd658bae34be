/** Placeholder for a command whose issue has not landed: a clear message and exit code 2, never a fake success. */
export function notBuiltYet(command: string): number {
  process.stderr.write(`fw ${command}: not available in this version of @framework/cli yet.\n`);
  return 2;
}
