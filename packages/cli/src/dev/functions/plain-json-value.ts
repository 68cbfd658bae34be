/**
 * Whether `value` survives `JSON.stringify` then `JSON.parse` unchanged, and an upper bound of the bytes its JSON
 * takes; `undefined` when it would change (a Date, a class instance, `toJSON`, `undefined` or a non-finite number
 * inside, `-0`, a BigInt, a cycle) or when the bound passes `limitBytes`.
 *
 * A function's result then crosses the worker boundary once, by structured clone, with exactly what Lambda's JSON
 * serialization would give; any other result still travels as JSON text (serialized once, parsed once).
 */
export function plainJsonSizeBound(value: unknown, limitBytes: number): number | undefined {
  let bound = 0;
  const visit = (v: unknown, depth: number): boolean => {
    if (bound > limitBytes || depth > 200) return false;
    switch (typeof v) {
      case 'string':
        // Each UTF-16 unit is at most 6 bytes of JSON (`\u001f`), plus the quotes.
        bound += v.length * 6 + 2;
        return true;
      case 'number':
        bound += 24;
        return Number.isFinite(v) && !Object.is(v, -0);
      case 'boolean':
        bound += 5;
        return true;
      case 'object': {
        bound += 4; // `null`, or the brackets
        if (v === null) return true;
        if (Array.isArray(v)) {
          if (Object.getPrototypeOf(v) !== Array.prototype) return false;
          for (let i = 0; i < v.length; i++) {
            bound += 1;
            if (!visit(v[i], depth + 1)) return false;
          }
          return true;
        }
        const prototype = Object.getPrototypeOf(v) as unknown;
        if (prototype !== Object.prototype && prototype !== null) return false;
        if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
        for (const key of Object.keys(v)) {
          bound += key.length * 6 + 4;
          if (!visit((v as Record<string, unknown>)[key], depth + 1)) return false;
        }
        return true;
      }
      default:
        return false;
    }
  };
  return visit(value, 0) && bound <= limitBytes ? bound : undefined;
}
