import { ResponseValidationFailed, ValidationFailed, type ValidationIssue } from '../../errors.js';
import type { StandardSchemaV1 } from './standard-schema.js';

/** The schemas a route may declare, each any Standard Schema (zod, valibot, arktype, ...). */
export interface RouteSchemas {
  /** The parsed body (after JSON parsing; see the README's body table). */
  readonly body?: StandardSchemaV1 | undefined;
  /** `ctx.query`: one string per parameter. */
  readonly query?: StandardSchemaV1 | undefined;
  /** `ctx.pathParams`: the route's dynamic segments. */
  readonly params?: StandardSchemaV1 | undefined;
  /** `ctx.headers`: lower-case names. Declare only the headers the route reads; the others stay in `ctx.headers`. */
  readonly headers?: StandardSchemaV1 | undefined;
  /** The value `fn` returns (not `response(...)` values), checked when response validation is on. */
  readonly response?: StandardSchemaV1 | undefined;
}

type RequestPart = 'body' | 'query' | 'params' | 'headers';

/** The output type of a schema, or `Otherwise` when none is declared. */
export type SchemaOutput<S, Otherwise> = S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : Otherwise;

/** What a return value must be for a response schema: its input type (the schema's output is not sent). */
export type SchemaInput<S, Otherwise> = S extends StandardSchemaV1 ? StandardSchemaV1.InferInput<S> : Otherwise;

/** `ctx.input`: the parsed values of the request, typed by the declared schemas. */
export interface RequestInput<TBody = unknown, TQuery = Readonly<Record<string, string>>, TParams = Readonly<Record<string, string>>, THeaders = Readonly<Record<string, string>>> {
  readonly body: TBody;
  readonly query: TQuery;
  readonly params: TParams;
  readonly headers: THeaders;
}

function pathOf(issue: StandardSchemaV1.Issue): (string | number)[] {
  return (issue.path ?? []).map((segment) => {
    const key = typeof segment === 'object' ? segment.key : segment;
    return typeof key === 'number' ? key : String(key);
  });
}

function toIssues(where: ValidationIssue['in'], issues: ReadonlyArray<StandardSchemaV1.Issue>): ValidationIssue[] {
  return issues.map((issue) => ({ in: where, path: pathOf(issue), message: issue.message }));
}

/**
 * A schema's output for a map keyed by the client (query, params, headers) is made prototype-free like the input
 * (`Object.assign` onto a null-prototype object defines `__proto__` as an own key: no setter on the way).
 */
function withoutPrototype(value: unknown): unknown {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype ? Object.assign(Object.create(null), value) : value;
}

type Parts = Record<RequestPart, unknown>;

/** Checks the declared request parts: the parsed values by part (undeclared parts keep the raw value). */
export type RequestValidator = (raw: Parts) => Parts | Promise<Parts>;

/**
 * The validator of a route's request schemas, undefined when it declares none. Every declared part is checked, so the
 * answer lists every issue at once; synchronous schemas cost no promise, async ones (async refinements) are awaited
 * and still reported in the parts' order.
 */
export function requestValidator(schemas: RouteSchemas): RequestValidator | undefined {
  const parts = (['body', 'query', 'params', 'headers'] as const).filter((part) => schemas[part] !== undefined);
  if (parts.length === 0) return undefined;
  return (raw) => {
    const results = parts.map((part) => schemas[part]!['~standard'].validate(raw[part]));
    return results.some((result) => result instanceof Promise) ? Promise.all(results).then((settled) => collect(parts, raw, settled)) : collect(parts, raw, results as StandardSchemaV1.Result<unknown>[]);
  };
}

function collect(parts: readonly RequestPart[], raw: Parts, results: readonly StandardSchemaV1.Result<unknown>[]): Parts {
  const out = { ...raw };
  const issues: ValidationIssue[] = [];
  results.forEach((result, index) => {
    const part = parts[index]!;
    if (result.issues) issues.push(...toIssues(part, result.issues));
    else out[part] = part === 'body' ? result.value : withoutPrototype(result.value);
  });
  if (issues.length) throw new ValidationFailed(issues);
  return out;
}

/** Checks a return value against the response schema; throws `ResponseValidationFailed` naming every field. */
export async function checkResponse(schema: StandardSchemaV1, value: unknown): Promise<void> {
  const result = await schema['~standard'].validate(value);
  if (result.issues) throw new ResponseValidationFailed(toIssues('response', result.issues));
}
