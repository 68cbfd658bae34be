/** `main-db` → `MAIN_DB`: how an intent id appears inside a variable name. */
export function envToken(id: string): string {
  return id.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase();
}
