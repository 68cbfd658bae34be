import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Writes a throwaway project (file path → content) and returns its folder; `remove` deletes it. */
export function tempProject(files: Record<string, string>): { dir: string; write(file: string, content: string): void; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-infra-project-'));
  const write = (file: string, content: string) => {
    const target = path.join(dir, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
  };
  for (const [file, content] of Object.entries(files)) write(file, content);
  return { dir, write, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** A route module like `handler({ scopes }, fn)` produces: `main` carrying `handlerInfo`. */
export function routeSource(scopes: readonly string[] = [], body = "({ ok: true })"): string {
  return `export const main = Object.assign(async () => ${body}, { handlerInfo: { kind: 'http', scopes: ${JSON.stringify(scopes)}, middleware: [] } });\n`;
}

/** The three layers of a small app. */
export const SMALL_APP = {
  base: { name: 'shop', region: 'us-east-1' },
  security: { scopes: { 'items:read': 'Read items' }, appClients: { web: { scopes: ['items:read'], flows: ['user_srp' as const] } } },
  envs: { dev: { preset: 'free' as const } },
};
