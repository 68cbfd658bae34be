import type { RouteDefinition } from '@framework/core';

/** A route matched to a request, with its path parameters (decoded, as the gateway hands them over). */
export interface RouteMatch {
  readonly route: RouteDefinition;
  readonly pathParameters?: Record<string, string>;
}

interface DynamicRoute {
  readonly route: RouteDefinition;
  readonly pattern: RegExp;
  /** Literal segments first, then parameters, then greedy: the gateway's order of precedence. */
  readonly rank: number;
}

/**
 * Matches requests to the app's routes as the HTTP API does: exact paths first, then paths with parameters (the more
 * literal segments, the earlier), a greedy `{name+}` last. Built once per app model, so a request costs a map lookup
 * (static paths) or a few regular expressions.
 */
export class RouteTable {
  private readonly exact = new Map<string, RouteDefinition>();
  private readonly dynamic: DynamicRoute[] = [];

  constructor(routes: readonly RouteDefinition[]) {
    for (const route of routes) {
      if (route.pathParams.length === 0) {
        this.exact.set(`${route.method} ${route.path}`, route);
        continue;
      }
      const segments = route.path.split('/').filter(Boolean);
      let rank = 0;
      const source = segments
        .map((segment) => {
          const greedy = /^\{(\w+)\+\}$/.exec(segment);
          if (greedy) {
            rank -= 1000;
            return `/(?<${greedy[1]}>.+)`;
          }
          const param = /^\{(\w+)\}$/.exec(segment);
          if (param) return `/(?<${param[1]}>[^/]+)`;
          rank += 1;
          return `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
        })
        .join('');
      this.dynamic.push({ route, pattern: new RegExp(`^${source}/?$`), rank });
    }
    this.dynamic.sort((a, b) => b.rank - a.rank);
  }

  match(method: string, rawPath: string): RouteMatch | undefined {
    const path = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
    const exact = this.exact.get(`${method} ${path}`);
    if (exact) return { route: exact };
    for (const candidate of this.dynamic) {
      if (candidate.route.method !== method) continue;
      const m = candidate.pattern.exec(path);
      if (!m) continue;
      const pathParameters: Record<string, string> = Object.create(null) as Record<string, string>;
      for (const [name, value] of Object.entries(m.groups ?? {})) pathParameters[name] = safeDecode(value);
      return { route: candidate.route, pathParameters };
    }
    return undefined;
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
