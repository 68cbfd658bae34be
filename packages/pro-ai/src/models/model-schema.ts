import type { StandardSchemaV1 } from '@framework/runtime';
import type { Schema } from 'ai';
import { AiError } from '../errors.js';
import { loadAiSdk } from './ai-sdk.js';

/** A JSON Schema object, as a model provider receives it. */
export type JsonSchemaObject = Record<string, unknown>;

interface StandardJsonProps {
  readonly vendor?: unknown;
  readonly jsonSchema?: { readonly input?: unknown };
}

/**
 * Throws `FW_ERR_AI_SCHEMA_NOT_CONVERTIBLE` unless `toModelSchema` can convert the schema: checked where a schema is
 * declared (a tool of `defineAgent`), without loading the ai SDK, which converts it at the first call.
 */
export function checkModelSchema(schema: StandardSchemaV1, jsonSchema?: JsonSchemaObject): void {
  const standard = (schema as { '~standard'?: StandardJsonProps })['~standard'];
  if (typeof standard !== 'object' || standard === null) {
    throw new AiError('FW_ERR_AI_SCHEMA_NOT_CONVERTIBLE', 'The schema is not a Standard Schema (no "~standard" property): pass a zod, valibot or arktype schema.');
  }
  if (jsonSchema || standard.vendor === 'zod' || typeof standard.jsonSchema?.input === 'function') return;
  const vendor = typeof standard.vendor === 'string' ? standard.vendor : 'unknown';
  throw new AiError(
    'FW_ERR_AI_SCHEMA_NOT_CONVERTIBLE',
    `A ${vendor} schema has no JSON Schema to send to the model: pass jsonSchema beside it${vendor === 'valibot' ? " (toJsonSchema(schema) from '@valibot/to-json-schema')" : ''}, or use a library that implements the Standard JSON Schema interface (zod 4.2+).`,
  );
}

/**
 * A Standard Schema (zod, valibot, arktype, ...) as the ai SDK's `Schema` (the SDK is loaded on first use): the JSON
 * Schema goes to the model, the Standard Schema validates what comes back. The JSON Schema comes from the Standard
 * JSON Schema interface (`~standard.jsonSchema`, zod 4.2+, arktype), from zod itself, or from `jsonSchema` when the
 * library has neither (valibot: `toJsonSchema(schema)` from `@valibot/to-json-schema`).
 */
export async function toModelSchema<T>(schema: StandardSchemaV1<unknown, T>, jsonSchema?: JsonSchemaObject): Promise<Schema<T>> {
  checkModelSchema(schema, jsonSchema);
  const { asSchema, jsonSchema: fromJsonSchema } = await loadAiSdk();
  const validate = async (value: unknown) => {
    const result = await schema['~standard'].validate(value);
    return result.issues ? { success: false as const, error: new Error(result.issues.map((i) => i.message).join('; ')) } : { success: true as const, value: result.value };
  };
  if (jsonSchema) return fromJsonSchema<T>(jsonSchema, { validate });
  return asSchema(schema as never) as Schema<T>;
}
