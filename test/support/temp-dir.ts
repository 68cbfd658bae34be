import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A fresh folder under the system's temp folder; `remove` deletes it (call it in `after`). */
export function tempDir(prefix: string): { readonly dir: string; remove(): void } {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`)));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Every file under `dir` (relative, `/`-separated), skipping `node_modules`. */
export function listFiles(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === '.git') continue;
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(dir, child));
    else if (entry.isFile()) out.push(child);
  }
  return out.sort();
}

/** Files under `dir` whose text names one of `paths` (a machine-specific path leaked into a generated file). */
export function filesNamingPaths(dir: string, paths: readonly string[]): string[] {
  const needles = paths.filter((p) => p.length > 1);
  return listFiles(dir).filter((file) => {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    return needles.some((needle) => text.includes(needle));
  });
}
