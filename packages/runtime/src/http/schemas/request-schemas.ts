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

/**
 * Checks the request parts a route declared schemas for: every part is checked (so the answer lists every issue at
 * once), synchronous schemas without a promise in between, async ones (async refinements) awaited.
 */
export class RequestValidator {
  private readonly parts: readonly (readonly [RequestPart, StandardSchemaV1])[];

  constructor(schemas: RouteSchemas) {
    const parts: (readonly [RequestPart, StandardSchemaV1])[] = [];
    for (const part of ['body', 'query', 'params', 'headers'] as const) {
      const schema = schemas[part];
      if (schema !== undefined) parts.push([part, schema]);
    }
    this.parts = parts;
  }

  get isEmpty(): boolean {
    return this.parts.length === 0;
  }

  /** The parsed values by part (undeclared parts keep the raw value), or throws `ValidationFailed` with every issue. */
  validate(raw: Record<RequestPart, unknown>): Record<RequestPart, unknown> | Promise<Record<RequestPart, unknown>> {
    const results = this.parts.map(([part, schema]) => schema['~standard'].validate(raw[part]));
    // Only async schemas (async refinements) cost a promise; their results are read in the parts' order all the same.
    if (results.some((result) => result instanceof Promise)) return Promise.all(results).then((settled) => this.collect(raw, settled));
    return this.collect(raw, results as StandardSchemaV1.Result<unknown>[]);
  }

  private collect(raw: Record<RequestPart, unknown>, results: readonly StandardSchemaV1.Result<unknown>[]): Record<RequestPart, unknown> {
    const out = { ...raw };
    let issues: ValidationIssue[] | undefined;
    results.forEach((result, index) => {
      const part = this.parts[index]![0];
      if (result.issues) (issues ??= []).push(...toIssues(part, result.issues));
      else out[part] = part === 'body' ? result.value : withoutPrototype(result.value);
    });
    if (issues) throw new ValidationFailed(issues);
    return out;
  }
}

/** Checks a return value against the response schema; throws `ResponseValidationFailed` naming every field. */
export async function checkResponse(schema: StandardSchemaV1, value: unknown): Promise<void> {
  let result = schema['~standard'].validate(value);
  if (result instanceof Promise) result = await result;
  if (result.issues) throw new ResponseValidationFailed(toIssues('response', result.issues));
}
