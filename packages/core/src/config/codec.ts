import * as t from 'io-ts';
import type { ConfigProblemCode } from '../errors.js';
import { closestName } from '../naming/closest-name.js';

// Re-exported: config code calls it as `c.closestName` (it lives with the naming helpers, free of io-ts).
export { closestName };

/**
 * Small io-ts building blocks whose failures read well. Every codec here has a `name` that is the "expected ..."
 * half of an error message ("an integer from 128 to 10240"), and structs reject unknown fields (a typo in a config
 * key must not be silently ignored). A failure's message carries its problem code; see `report.ts`.
 */

export type Codec<A> = t.Type<A, A, unknown>;

/** Encodes a problem code into an io-ts failure message; `report.ts` decodes it. */
export function problemMessage(code: ConfigProblemCode, text: string): string {
  return `${code} ${text}`;
}

/** How a found value is shown in an error: strings quoted, objects abbreviated. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return 'a symbol';
  if (typeof value === 'bigint') return `${value}n`;
  return String(value);
}

function make<A>(name: string, is: (u: unknown) => u is A, check: (u: unknown) => boolean): Codec<A> {
  return new t.Type<A, A, unknown>(
    name,
    is,
    (u, c) =>
      check(u) ? t.success(u as A) : t.failure(u, c, problemMessage('FW_ERR_CONFIG_INVALID_VALUE', `expected ${name}, got ${describeValue(u)}`)),
    t.identity,
  );
}

export function integer(min: number, max: number): Codec<number> {
  const ok = (u: unknown): u is number => typeof u === 'number' && Number.isInteger(u) && u >= min && u <= max;
  return make(`an integer from ${min} to ${max}`, ok, ok);
}

export function decimal(min: number, max: number): Codec<number> {
  const ok = (u: unknown): u is number => typeof u === 'number' && Number.isFinite(u) && u >= min && u <= max;
  return make(`a number from ${min} to ${max}`, ok, ok);
}

export const boolean: Codec<boolean> = make('true or false', (u): u is boolean => typeof u === 'boolean', (u) => typeof u === 'boolean');

/** A string matching `pattern`; `description` completes "expected ...". */
export function pattern(description: string, regex: RegExp): Codec<string> {
  const ok = (u: unknown): u is string => typeof u === 'string' && regex.test(u);
  return make(description, ok, ok);
}

export function text(maxLength = 1024): Codec<string> {
  const ok = (u: unknown): u is string => typeof u === 'string' && u.length <= maxLength;
  return make(`a string of at most ${maxLength} characters`, ok, ok);
}

export function oneOf<const V extends string | number>(values: readonly V[]): Codec<V> {
  const ok = (u: unknown): u is V => (values as readonly unknown[]).includes(u);
  return make(`one of ${values.map((v) => JSON.stringify(v)).join(', ')}`, ok, ok);
}

/** An array whose items are each validated (all failures reported, with their index). */
export function array<A>(item: Codec<A>, options: { minLength?: number; maxLength?: number } = {}): Codec<readonly A[]> {
  const { minLength = 0, maxLength = Number.MAX_SAFE_INTEGER } = options;
  const name = `an array of ${item.name}`;
  return new t.Type<readonly A[], readonly A[], unknown>(
    name,
    (u): u is readonly A[] => Array.isArray(u) && u.every(item.is),
    (u, c) => {
      if (!Array.isArray(u)) return t.failure<readonly A[]>(u, c, problemMessage('FW_ERR_CONFIG_INVALID_VALUE', `expected an array, got ${describeValue(u)}`));
      const errors: t.Errors = [];
      if (u.length < minLength || u.length > maxLength) {
        const bounds = maxLength === Number.MAX_SAFE_INTEGER ? `at least ${minLength}` : `${minLength} to ${maxLength}`;
        errors.push({ value: u, context: c, message: problemMessage('FW_ERR_CONFIG_INVALID_VALUE', `expected ${bounds} items, got ${u.length}`) });
      }
      const out: A[] = [];
      u.forEach((value, index) => {
        const r = item.validate(value, t.appendContext(c, String(index), item, value));
        if (r._tag === 'Left') errors.push(...r.left);
        else out.push(r.right);
      });
      return errors.length ? t.failures<readonly A[]>(errors) : t.success<readonly A[]>(out);
    },
    t.identity,
  );
}

/** An object used as a map; keys are validated with `key`, values with `value`. */
export function record<A>(key: Codec<string>, value: Codec<A>): Codec<Record<string, A>> {
  return new t.Type<Record<string, A>, Record<string, A>, unknown>(
    `a map of ${value.name}`,
    (u): u is Record<string, A> => isPlainObject(u) && Object.values(u).every(value.is),
    (u, c) => {
      if (!isPlainObject(u)) return t.failure(u, c, problemMessage('FW_ERR_CONFIG_INVALID_VALUE', `expected an object, got ${describeValue(u)}`));
      const errors: t.Errors = [];
      const out: Record<string, A> = {};
      for (const [k, v] of Object.entries(u)) {
        const keyResult = key.validate(k, t.appendContext(c, k, key, k));
        if (keyResult._tag === 'Left') {
          errors.push({ value: k, context: t.appendContext(c, k, key, k), message: problemMessage('FW_ERR_CONFIG_INVALID_VALUE', `key ${JSON.stringify(k)} is not valid: expected ${key.name}`) });
          continue;
        }
        const r = value.validate(v, t.appendContext(c, k, value, v));
        if (r._tag === 'Left') errors.push(...r.left);
        else out[k] = r.right;
      }
      return errors.length ? t.failures(errors) : t.success(out);
    },
    t.identity,
  );
}

/** A field of a struct: its codec and whether it may be left out. */
export interface Field<A> {
  readonly codec: Codec<A>;
  readonly optional: boolean;
}
export const required = <A>(codec: Codec<A>): Field<A> => ({ codec, optional: false });
export const optional = <A>(codec: Codec<A>): Field<A> => ({ codec, optional: true });

export type Fields<T> = { readonly [K in keyof T]-?: Field<NonNullable<T[K]>> };

/**
 * An object with known fields. Every field is checked (all failures reported); a missing required field and an
 * unknown field are errors of their own, the latter with a "did you mean" when a known field is close.
 */
export function struct<T extends object>(name: string, fields: Fields<T>): Codec<T> {
  const entries = Object.entries(fields) as Array<[string, Field<unknown>]>;
  const known = new Set(entries.map(([k]) => k));
  const is = (u: unknown): u is T =>
    isPlainObject(u) &&
    Object.keys(u).every((k) => known.has(k)) &&
    entries.every(([k, f]) => (u[k] === undefined ? f.optional : f.codec.is(u[k])));
  return new t.Type<T, T, unknown>(
    name,
    is,
    (u, c) => {
      if (!isPlainObject(u)) return t.failure(u, c, problemMessage('FW_ERR_CONFIG_INVALID_VALUE', `expected ${name}, got ${describeValue(u)}`));
      const errors: t.Errors = [];
      const out: Record<string, unknown> = {};
      for (const [k, f] of entries) {
        const v = u[k];
        const fieldContext = t.appendContext(c, k, f.codec, v);
        if (v === undefined) {
          if (!f.optional) {
            errors.push({ value: v, context: fieldContext, message: problemMessage('FW_ERR_CONFIG_MISSING_FIELD', `is required: expected ${f.codec.name}`) });
          }
          continue;
        }
        const r = f.codec.validate(v, fieldContext);
        if (r._tag === 'Left') errors.push(...r.left);
        else out[k] = r.right;
      }
      for (const k of Object.keys(u)) {
        if (known.has(k)) continue;
        const hint = closestName(k, [...known]);
        const suggestion = hint ? ` Did you mean "${hint}"?` : ` Known fields: ${[...known].join(', ')}.`;
        errors.push({
          value: u[k],
          context: t.appendContext(c, k, t.unknown, u[k]),
          message: problemMessage('FW_ERR_CONFIG_UNKNOWN_FIELD', `is not a field of ${name}.${suggestion}`),
        });
      }
      return errors.length ? t.failures(errors) : t.success(out as T);
    },
    t.identity,
  );
}

/**
 * One of several object shapes told apart by a tag field (`{ type: 'oidc', ... }` or `{ type: 'saml', ... }`): the
 * tag picks the variant whose struct then checks the whole object, so errors name that variant's fields.
 */
export function tagged<T extends object>(name: string, tag: string, variants: Readonly<Record<string, Codec<T>>>): Codec<T> {
  const tags = Object.keys(variants);
  return new t.Type<T, T, unknown>(
    name,
    (u): u is T => isPlainObject(u) && typeof u[tag] === 'string' && Object.hasOwn(variants, u[tag] as string) && variants[u[tag] as string]!.is(u),
    (u, c) => {
      if (!isPlainObject(u)) return t.failure(u, c, problemMessage('FW_ERR_CONFIG_INVALID_VALUE', `expected ${name}, got ${describeValue(u)}`));
      const value = u[tag];
      if (typeof value !== 'string' || !Object.hasOwn(variants, value)) {
        const context = t.appendContext(c, tag, t.unknown, value);
        const code = value === undefined ? 'FW_ERR_CONFIG_MISSING_FIELD' : 'FW_ERR_CONFIG_INVALID_VALUE';
        return t.failure(value, context, problemMessage(code, `expected one of ${tags.map((v) => JSON.stringify(v)).join(', ')}, got ${describeValue(value)}`));
      }
      return variants[value]!.validate(u, c);
    },
    t.identity,
  );
}

export function isPlainObject(u: unknown): u is Record<string, unknown> {
  return typeof u === 'object' && u !== null && !Array.isArray(u);
}
