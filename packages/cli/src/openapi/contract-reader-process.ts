/**
 * The child process of `readRouteContracts`: imports each route bundle, reads what its `main` declares (scopes,
 * middleware, schemas) and converts the schemas to JSON Schema here, where the schema objects live. Writes the result
 * to a file (not stdout, which module code may print to), then exits even if a module left a timer or socket open.
 */
import * as fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { handlerInfoOf, routeSchemasOf, type RouteSchemaPart } from '@framework/core/names';
import { toJsonSchema, type ConvertedSchema } from './json-schema.js';
import { projectConverters } from './project-converters.js';
import type { RouteContractResult } from './route-contract.js';

/** What the parent sends on stdin. */
export interface ContractReaderInput {
  readonly rootDir: string;
  /** Route key → absolute path of its compiled bundle. */
  readonly bundles: Readonly<Record<string, string>>;
  readonly resultFile: string;
}

async function read(input: ContractReaderInput): Promise<Record<string, RouteContractResult>> {
  const converters = await projectConverters(input.rootDir);
  const out: Record<string, RouteContractResult> = Object.create(null);
  for (const [routeKey, bundle] of Object.entries(input.bundles)) {
    try {
      const mod = (await import(pathToFileURL(bundle).href)) as { main?: unknown };
      if (typeof mod.main !== 'function') {
        out[routeKey] = { error: 'the file does not export a function "main" (export const main = handler(...))' };
        continue;
      }
      const info = handlerInfoOf(mod.main);
      const schemas: Partial<Record<RouteSchemaPart, ConvertedSchema>> = {};
      let responses: Record<string, ConvertedSchema> | undefined;
      for (const [part, schema] of Object.entries(routeSchemasOf(mod.main))) {
        // `response` per status is a plain object of schemas by status (the runtime checked its keys when it loaded).
        if (part === 'response' && !('~standard' in schema)) {
          responses = Object.fromEntries(Object.entries(schema).map(([status, byStatus]) => [status, toJsonSchema(byStatus, converters)]));
        } else schemas[part as RouteSchemaPart] = toJsonSchema(schema, converters);
      }
      out[routeKey] = { scopes: info?.scopes ?? [], idempotent: info?.idempotent ?? false, schemas, ...(responses ? { responses } : {}) };
    } catch (error) {
      out[routeKey] = { error: `it threw while loading: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  return out;
}

const input = JSON.parse(fs.readFileSync(0, 'utf8')) as ContractReaderInput;
fs.writeFileSync(input.resultFile, JSON.stringify(await read(input)));
process.exit(0);
