/** A form body as Stripe's API reads it: `items[0][price]=p&metadata[tenant_id]=t` nests into objects and arrays. */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };

const MAX_DEPTH = 5;

/**
 * Parses Stripe's form encoding (bracketed keys; numeric segments make arrays). Objects have no prototype (the keys
 * are the client's), and `__proto__`-style keys are plain keys.
 */
export function parseStripeForm(body: string): Record<string, FormValue> {
  const root: Record<string, FormValue> = Object.create(null);
  for (const [key, value] of new URLSearchParams(body)) {
    const first = /^[^[\]]+/.exec(key)?.[0];
    if (!first) continue;
    const path = [first, ...Array.from(key.slice(first.length).matchAll(/\[([^[\]]*)\]/g), (m) => m[1]!)];
    if (path.length > MAX_DEPTH) continue;
    let node: Record<string, FormValue> | FormValue[] = root;
    for (let i = 0; i < path.length - 1; i++) {
      const segment = path[i]!;
      const nextIsIndex = /^\d+$/.test(path[i + 1]!);
      const slot = (node as Record<string, FormValue>)[segment];
      if (slot === undefined || typeof slot === 'string') {
        const created: FormValue = nextIsIndex ? [] : (Object.create(null) as Record<string, FormValue>);
        (node as Record<string, FormValue>)[segment] = created;
        node = created as Record<string, FormValue> | FormValue[];
      } else {
        node = slot as Record<string, FormValue> | FormValue[];
      }
    }
    (node as Record<string, FormValue>)[path[path.length - 1]!] = value;
  }
  return root;
}

/** A nested value as a string, when it is one. */
export function formString(value: FormValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A nested value as a list (Stripe sends arrays as `items[0]`, `items[1]`). */
export function formList(value: FormValue | undefined): FormValue[] {
  if (Array.isArray(value)) return value.filter((v) => v !== undefined);
  if (value && typeof value === 'object') return Object.values(value);
  return [];
}

/** A nested object of strings (metadata). */
export function formRecord(value: FormValue | undefined): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  if (value && typeof value === 'object' && !Array.isArray(value)) for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
}
