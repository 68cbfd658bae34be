import type { ConfigProblem } from '../errors.js';
import { listHandlerFiles, stripExtension } from './source-files.js';

export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const;
export type HttpMethod = Uppercase<(typeof HTTP_METHODS)[number]>;

/** A route found on disk, before names and sizes are given to it. */
export interface DiscoveredRoute {
  readonly method: HttpMethod;
  /** Gateway path: `/tasks/{id}`, `/files/{rest+}`, `/`. */
  readonly path: string;
  /** `PUT /tasks/{id}`. */
  readonly routeKey: string;
  /** Names of the path parameters, in order. */
  readonly pathParams: readonly string[];
  /** Project-relative file, `/`-separated. */
  readonly file: string;
}

const LITERAL_SEGMENT = /^[A-Za-z0-9._~-]+$/;
const PARAM = /^\[([A-Za-z_][A-Za-z0-9_]*)\]$/;
const CATCH_ALL = /^\[\.\.\.([A-Za-z_][A-Za-z0-9_]*)\]$/;

/** Converts one folder name to a gateway path segment, or says why it cannot be one. */
export function segmentToPath(segment: string, isLast: boolean): { segment: string; param?: string } | { error: string } {
  const param = PARAM.exec(segment);
  if (param) return { segment: `{${param[1]}}`, param: param[1] };
  const catchAll = CATCH_ALL.exec(segment);
  if (catchAll) {
    if (!isLast) return { error: `catch-all segment "${segment}" must be the last folder of the path` };
    return { segment: `{${catchAll[1]}+}`, param: catchAll[1] };
  }
  if (!LITERAL_SEGMENT.test(segment)) {
    return { error: `folder "${segment}" is not a path segment: use letters, digits, ".", "_", "~", "-", or "[name]" for a parameter and "[...name]" for a catch-all` };
  }
  return { segment };
}

/**
 * Maps `<routesDir>/<segments>/<method>.ts` to routes. Problems (bad method file names, bad folders, two files for
 * one method and path) are returned, each naming its file, so `defineApp` can report them with everything else.
 */
export function discoverRoutes(rootDir: string, routesDir: string): { routes: DiscoveredRoute[]; problems: ConfigProblem[] } {
  const routes: DiscoveredRoute[] = [];
  const problems: ConfigProblem[] = [];
  const seen = new Map<string, string>();
  for (const relative of listHandlerFiles(`${rootDir}/${routesDir}`)) {
    const file = `${routesDir}/${relative}`;
    const parts = stripExtension(relative).split('/');
    const methodName = parts.pop()!;
    if (!(HTTP_METHODS as readonly string[]).includes(methodName)) {
      problems.push({
        code: 'FW_ERR_ROUTE_NOT_A_METHOD',
        path: file,
        message: `"${methodName}" is not an HTTP method; name route files ${HTTP_METHODS.join(', ')} (e.g. ${[routesDir, ...parts, 'get.ts'].join('/')}), and move shared code to src/lib/ or a file starting with "_"`,
      });
      continue;
    }
    const segments: string[] = [];
    const pathParams: string[] = [];
    let bad = false;
    parts.forEach((part, index) => {
      const result = segmentToPath(part, index === parts.length - 1);
      if ('error' in result) {
        problems.push({ code: 'FW_ERR_ROUTE_BAD_SEGMENT', path: file, message: result.error });
        bad = true;
        return;
      }
      segments.push(result.segment);
      if (result.param) {
        if (pathParams.includes(result.param)) {
          problems.push({ code: 'FW_ERR_ROUTE_BAD_SEGMENT', path: file, message: `path parameter "${result.param}" appears twice; give each parameter its own name` });
          bad = true;
        }
        pathParams.push(result.param);
      }
    });
    if (bad) continue;
    const method = methodName.toUpperCase() as HttpMethod;
    const path = `/${segments.join('/')}`;
    // Two parameter names at one position are the same route to the gateway: compare with the names erased. A
    // catch-all keeps its `+`: `/files/{id}` and `/files/{rest+}` are two routes (the more specific one wins).
    const shape = `${method} ${path.replace(/\{[^}+]+(\+?)\}/g, '{$1}')}`;
    const other = seen.get(shape);
    if (other) {
      problems.push({ code: 'FW_ERR_ROUTE_CONFLICT', path: file, message: `maps to ${method} ${path}, like ${other}; keep one of the two files` });
      continue;
    }
    seen.set(shape, file);
    routes.push({ method, path, routeKey: `${method} ${path}`, pathParams, file });
  }
  return { routes, problems };
}
