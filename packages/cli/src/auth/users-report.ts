import type { AuthUser } from '@framework/auth';

/** `fw auth users list`: one row per user. */
export function formatUsers(users: readonly AuthUser[]): string[] {
  if (users.length === 0) return ['no users'];
  const table = [
    ['USERNAME', 'ROLES', 'TENANT', 'ENABLED', 'STATUS', 'EMAIL'],
    ...users.map((u) => [u.username, u.roles.join(', ') || '-', u.tenant ?? '-', u.enabled ? 'yes' : 'no', u.status, u.email ?? '-']),
  ];
  const widths = table[0]!.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
  return [...table.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()), `${users.length} user${users.length > 1 ? 's' : ''}`];
}
