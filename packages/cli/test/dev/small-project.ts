import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO } from './helpers.js';

/**
 * A small project in a temporary folder: no database (so `fw dev` starts in a few seconds), one scope, the given
 * infrastructure and files, `node_modules` linked to the repository's. The caller removes the folder.
 */
export function smallProject(files: Record<string, string>, infrastructure = '{ auth: {} }'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-dev-small-'));
  const all: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'small', version: '0.0.0', private: true, type: 'module' }),
    'tsconfig.json': fs.readFileSync(path.join(REPO, 'examples', 'tasks-api', 'tsconfig.json'), 'utf8'),
    'fw.config.ts': [
      `import { defineApp } from '@framework/core';`,
      `export default defineApp({`,
      `  base: { name: 'small', region: 'eu-west-1' },`,
      `  security: { scopes: { 'items:read': 'Read items' } },`,
      `  envs: { dev: { preset: 'free', overrides: { functions: { timeout: 5 } } } },`,
      `  routesDir: 'src/routes',`,
      `  infrastructure: ${infrastructure},`,
      `});`,
      '',
    ].join('\n'),
    ...files,
  };
  for (const [file, text] of Object.entries(all)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}
