import * as fs from 'node:fs';
import * as path from 'node:path';
import { APP_TYPES_FILE, appTypesDeclaration, type AppTypesSource } from './app-types-declaration.js';

/**
 * Writes `.fw/types/app.d.ts` for the app in `rootDir`. The file is left untouched when its text is the same, so an
 * editor's TypeScript server and `fw dev`'s background type check do not re-check for nothing. Returns whether it
 * changed.
 */
export function writeAppTypes(rootDir: string, app: AppTypesSource): boolean {
  const file = path.join(rootDir, APP_TYPES_FILE);
  const text = appTypesDeclaration(app);
  let current: string | undefined;
  try {
    current = fs.readFileSync(file, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === text) return false;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Written beside and renamed, so a type checker never reads half a file.
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, text);
  fs.renameSync(temporary, file);
  return true;
}
