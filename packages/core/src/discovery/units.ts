import type { ConfigProblem } from '../errors.js';
import { INTENT_ID } from '../config/intents.js';
import { listHandlerFiles, stripExtension } from './source-files.js';

/** A handler file of a standalone function, queue consumer or cron, with its id. */
export interface DiscoveredUnit {
  readonly id: string;
  readonly file: string;
}

/** `src/functions/**` → ids like `reports/daily` (nested folders allowed). */
export function discoverFunctions(rootDir: string, functionsDir: string): { units: DiscoveredUnit[]; problems: ConfigProblem[] } {
  const units: DiscoveredUnit[] = [];
  const problems: ConfigProblem[] = [];
  for (const relative of listHandlerFiles(`${rootDir}/${functionsDir}`)) {
    const id = stripExtension(relative);
    const file = `${functionsDir}/${relative}`;
    if (!id.split('/').every((segment) => INTENT_ID.test(segment))) {
      problems.push({ code: 'FW_ERR_BAD_FILE_NAME', path: file, message: 'each folder and the file name must be letters, digits, "-" or "_" (at most 48), starting with a letter or digit, to become a function name' });
      continue;
    }
    units.push({ id, file });
  }
  return { units, problems };
}

/** `src/queues/<id>.ts` or `src/crons/<id>.ts`: flat folders, one file per unit. */
export function discoverFlat(rootDir: string, dir: string, kind: string): { units: DiscoveredUnit[]; problems: ConfigProblem[] } {
  const units: DiscoveredUnit[] = [];
  const problems: ConfigProblem[] = [];
  for (const relative of listHandlerFiles(`${rootDir}/${dir}`)) {
    const file = `${dir}/${relative}`;
    const id = stripExtension(relative);
    if (id.includes('/')) {
      problems.push({ code: 'FW_ERR_BAD_FILE_NAME', path: file, message: `${kind} files live directly in ${dir}/ (no sub-folders); move it to ${dir}/${id.split('/').pop()}.ts` });
      continue;
    }
    if (!INTENT_ID.test(id)) {
      problems.push({ code: 'FW_ERR_BAD_FILE_NAME', path: file, message: `the file name must be letters, digits, "-" or "_" (at most 48), starting with a letter or digit` });
      continue;
    }
    units.push({ id, file });
  }
  return { units, problems };
}
