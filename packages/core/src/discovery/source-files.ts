import * as fs from 'node:fs';
import * as path from 'node:path';

/** Extensions a handler file may have. */
export const HANDLER_EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'] as const;

/**
 * Handler files below `dir`, as paths relative to `dir` with `/` separators, sorted. Skipped: declaration files,
 * tests (`*.test.*`, `*.spec.*`) and anything whose name starts with `_` or `.` (so helpers can live beside
 * routes as `_schema.ts` or in `_lib/`).
 */
export function listHandlerFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (absolute: string, relative: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(absolute, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('_') || entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path.join(absolute, entry.name), rel);
      else if (isHandlerFile(entry.name)) out.push(rel);
    }
  };
  walk(dir, '');
  return out.sort();
}

export function isHandlerFile(name: string): boolean {
  if (name.endsWith('.d.ts') || /\.(test|spec)\.[mc]?[jt]s$/.test(name)) return false;
  return HANDLER_EXTENSIONS.some((ext) => name.endsWith(ext));
}

/** `reports/daily.ts` → `reports/daily`. */
export function stripExtension(file: string): string {
  return file.replace(/\.(m?[jt]s)$/, '');
}
