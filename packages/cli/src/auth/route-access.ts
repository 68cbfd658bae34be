import type { AppDefinition } from '@framework/core';
import { isMachineClient } from '../dev/auth/machine-client.js';

/** Who can reach one route. */
export interface RouteAccess {
  /** `GET /tasks/{id}`. */
  readonly routeKey: string;
  readonly file: string;
  /** The scopes its handler declares; empty for a public route. */
  readonly scopes: readonly string[];
  /** No scopes: anyone on the internet reaches it, with or without a token. */
  readonly isPublic: boolean;
  /** Roles whose users get a token with every scope through some app client that signs users in. */
  readonly roles: readonly string[];
  /** App clients with the `client_credentials` flow whose machine tokens carry every scope. */
  readonly machineClients: readonly string[];
  /** True when the handler could not be loaded, so its scopes are unknown (`scopes` is then empty). */
  readonly unknown?: boolean;
}

/**
 * Who reaches each route: a user's access token carries the scopes of their roles that the client they sign in
 * through may request (the pre-token-generation trigger's rule), a machine token the client's own scopes.
 */
export function routeAccess(app: AppDefinition, scopesByFunction: ReadonlyMap<string, readonly string[] | undefined>): RouteAccess[] {
  const { roles = {}, appClients = {} } = app.config.security;
  const userClients = Object.values(appClients).filter((c) => !isMachineClient(c));
  return app.routes.map((route) => {
    const declared = scopesByFunction.get(route.functionName);
    const scopes = declared ?? [];
    const covers = (held: readonly string[]) => scopes.every((s) => held.includes(s));
    return {
      routeKey: route.routeKey,
      file: route.file,
      scopes,
      isPublic: declared !== undefined && scopes.length === 0,
      roles: Object.entries(roles)
        .filter(([, role]) => userClients.some((client) => covers(role.scopes.filter((s) => client.scopes.includes(s)))))
        .map(([name]) => name)
        .sort(),
      machineClients: Object.entries(appClients)
        .filter(([, client]) => client.flows.includes('client_credentials') && covers(client.scopes))
        .map(([name]) => name)
        .sort(),
      ...(declared === undefined ? { unknown: true } : {}),
    };
  });
}

/** The report `fw auth routes` prints: one row per route, then the public routes named again. */
export function formatRouteAccess(rows: readonly RouteAccess[]): string[] {
  const table = [
    ['ROUTE', 'SCOPES', 'ROLES', 'MACHINE CLIENTS'],
    ...rows.map((r) => [
      r.routeKey,
      r.unknown ? '? (handler failed to load)' : r.isPublic ? 'PUBLIC (no token needed)' : r.scopes.join(' '),
      r.isPublic ? 'anyone' : r.roles.join(', ') || '(none)',
      r.isPublic ? 'anyone' : r.machineClients.join(', ') || '-',
    ]),
  ];
  const widths = table[0]!.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
  const lines = table.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ').trimEnd());
  const open = rows.filter((r) => r.isPublic);
  lines.push('');
  lines.push(open.length ? `${open.length} public route${open.length > 1 ? 's' : ''} (no scopes: check each is meant to be open): ${open.map((r) => `${r.routeKey} (${r.file})`).join(', ')}` : 'no public routes');
  const unreachable = rows.filter((r) => !r.isPublic && !r.unknown && r.roles.length === 0 && r.machineClients.length === 0);
  if (unreachable.length) lines.push(`${unreachable.length} route${unreachable.length > 1 ? 's' : ''} no role or client can reach: ${unreachable.map((r) => r.routeKey).join(', ')}`);
  return lines;
}
