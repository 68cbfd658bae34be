import { ResponseValidationFailed, ValidationFailed, type ValidationIssue } from '../../errors.js';
import { isExplicitResponse } from '../response.js';
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
  /**
   * The value `fn` returns (not `response(...)` values), checked when response validation is on; or one schema per
   * 2xx status (`{ 200: task, 202: accepted }`), then `response(...)` bodies of a declared status are checked too.
   */
  readonly response?: ResponseSchemas | undefined;
}

/**
 * `response` per status: `{ 200: task, 202: accepted }`. Keys are 2xx statuses other than 204 (which has no body):
 * the automatic ones (201 for POST, 200 otherwise) and those `fn` answers with `response({ statusCode, body })`.
 */
export type ResponseSchemaMap = { readonly [status: number]: StandardSchemaV1 };

/** What `response` takes: one schema for the success value, or one per status. */
export type ResponseSchemas = StandardSchemaV1 | ResponseSchemaMap;

/** Whether a value is a Standard Schema (the single form of `response`) rather than a map by status. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { '~standard'?: unknown })['~standard'] === 'object';
}

/** The 2xx statuses with a body a response map may declare. */
function isDeclarableStatus(status: number): boolean {
  return Number.isInteger(status) && status >= 200 && status <= 299 && status !== 204;
}

/**
 * A response map checked when the handler is defined (a module load, so a mistake fails `fw dev` and the tests at
 * once): a frozen null-prototype copy, by status.
 */
export function responseSchemaMap(map: ResponseSchemaMap): Readonly<Record<number, StandardSchemaV1>> {
  const out: Record<number, StandardSchemaV1> = Object.create(null);
  const entries = Object.entries(map);
  if (entries.length === 0) throw new TypeError('handler({ response: {} }) declares no status: give one schema per 2xx status, e.g. { 200: task, 202: accepted }, or one schema for the success value');
  for (const [key, schema] of entries) {
    const status = Number(key);
    if (!/^\d+$/.test(key) || !isDeclarableStatus(status)) {
      throw new TypeError(`handler({ response }) declares "${key}", which is not a 2xx status with a body: the keys are statuses 200-299 other than 204 (a 204 has no body, so it needs no schema); error answers are the framework's`);
    }
    if (!isStandardSchema(schema)) throw new TypeError(`handler({ response }) status ${key} is not a Standard Schema (zod, valibot, arktype, ...)`);
    out[status] = schema;
  }
  return Object.freeze(out);
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
export async function checkResponse(schema: StandardSchemaV1, value: unknown, status?: number): Promise<void> {
  const result = await schema['~standard'].validate(value);
  if (result.issues) throw new ResponseValidationFailed(toIssues('response', result.issues).map((issue) => (status === undefined ? issue : { ...issue, path: [status, ...issue.path] })));
}

/**
 * Checks a response against a map by status: a declared status's body against its schema; a 2xx status with a body
 * that the map does not declare is itself a mismatch (the route answers something its contract does not document).
 * 204, and statuses outside 2xx (redirects, error answers), are not checked.
 */
export async function checkResponseByStatus(schemas: Readonly<Record<number, StandardSchemaV1>>, status: number, body: unknown): Promise<void> {
  const schema = schemas[status];
  if (schema) return checkResponse(schema, body, status);
  if (!isDeclarableStatus(status)) return;
  const declared = Object.keys(schemas).join(', ');
  throw new ResponseValidationFailed([{ in: 'response', path: [status], message: `status ${status} is not declared in \`response\` (declared: ${declared}); add a schema for it` }]);
}

/** The status and body value `toHttpResponse` will send for a return value (before encoding), for response schemas. */
export function statusAndBodyOf(value: unknown, method: string): { readonly status: number; readonly body: unknown } {
  if (value === undefined || value === null) return { status: 204, body: undefined };
  if (isExplicitResponse(value)) return { status: value.statusCode ?? 200, body: value.body };
  return { status: method === 'POST' ? 201 : 200, body: value };
}
