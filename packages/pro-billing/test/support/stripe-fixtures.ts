import { readFileSync } from 'node:fs';

/** A sample object of `test/fixtures/stripe/` (a `{ "$ref": "x.json" }` value is replaced by that file). */
export function stripeFixture<T = Record<string, unknown>>(name: string): T {
  const resolve = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(resolve);
    if (value && typeof value === 'object') {
      const ref = (value as { $ref?: string }).$ref;
      if (ref) return stripeFixture(ref.replace(/\.json$/, ''));
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
    }
    return value;
  };
  return resolve(JSON.parse(readFileSync(new URL(`../fixtures/stripe/${name}.json`, import.meta.url), 'utf8'))) as T;
}
