import * as fs from 'node:fs';
import { isBuiltin } from 'node:module';
import * as path from 'node:path';

/**
 * The PostgreSQL clients a handler reaches the dev database with: a handler whose packages (and their dependencies)
 * include none of them never opens a connection to it, so it need not wait for the database to get ready.
 */
export const DATABASE_CLIENTS: readonly string[] = ['pg', 'pg-native', 'postgres', '@neondatabase/serverless', '@framework/data'];

/** The package a bare import specifier names (`@scope/name/sub` → `@scope/name`), or undefined for a built-in or a path. */
export function packageName(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:') || isBuiltin(specifier)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * Whether the packages a compiled handler imports reach one of `targets` through their `dependencies` (as Node would
 * resolve them: the nearest `node_modules` upward). A package that cannot be found counts as reaching them: the
 * answer is used to skip a wait, so when in doubt it says wait; a package in a dependency cycle may be answered for
 * by its partner alone (a wrong "no" then only means that the database port's own wait, which holds every connection
 * until the database is ready, counts in the handler's time). Results are kept per package folder (packages are not
 * edited while `fw dev` runs).
 */
export class PackageReach {
  private readonly reaches = new Map<string, boolean>();

  constructor(private readonly targets: readonly string[] = DATABASE_CLIENTS) {}

  /** Whether any of `specifiers` (a handler's external imports), resolved from `fromDir`, reaches a target. */
  anyReaches(specifiers: readonly string[], fromDir: string): boolean {
    for (const specifier of specifiers) {
      const name = packageName(specifier);
      if (name !== undefined && this.reachesFrom(name, fromDir, new Set())) return true;
    }
    return false;
  }

  private reachesFrom(name: string, fromDir: string, visiting: Set<string>): boolean {
    if (this.targets.includes(name)) return true;
    const folder = packageFolder(name, fromDir);
    if (folder === undefined) return true;
    const known = this.reaches.get(folder);
    if (known !== undefined) return known;
    // A dependency cycle: the package on the path answers for itself.
    if (visiting.has(folder)) return false;
    visiting.add(folder);
    let reaches = false;
    try {
      const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
      const optional = new Set(Object.keys((manifest as { peerDependenciesMeta?: Record<string, unknown> }).peerDependenciesMeta ?? {}));
      const dependencies = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {}).filter((d) => !optional.has(d))];
      reaches = dependencies.some((dependency) => this.reachesFrom(dependency, folder, visiting));
    } catch {
      reaches = true;
    }
    visiting.delete(folder);
    this.reaches.set(folder, reaches);
    return reaches;
  }
}

/** The real folder of package `name` as Node resolves it from `fromDir` (the nearest `node_modules` upward). */
function packageFolder(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return fs.realpathSync(candidate);
    if (path.dirname(dir) === dir) return undefined;
  }
}
