import { createRequire } from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { VendorConverter } from './json-schema.js';

/**
 * The JSON Schema converters of schema libraries that do not implement the Standard JSON Schema interface, taken from
 * the PROJECT's packages (the same copy its schemas were built with), each loaded only when installed:
 * - `zod` before 4.2: zod's own `z.toJSONSchema` (input side);
 * - `valibot`: `@valibot/to-json-schema`, valibot's official converter;
 * - `arktype`: the type's own `toJsonSchema()`.
 */
export async function projectConverters(rootDir: string): Promise<Record<string, VendorConverter>> {
  const require = createRequire(path.join(rootDir, 'package.json'));
  const load = async (name: string): Promise<Record<string, unknown> | undefined> => {
    try {
      return (await import(pathToFileURL(require.resolve(name)).href)) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  };
  const converters: Record<string, VendorConverter> = Object.create(null);
  const zod = await load('zod');
  const zodConvert = (zod?.toJSONSchema ?? (zod?.z as Record<string, unknown> | undefined)?.toJSONSchema) as ((schema: unknown, options: object) => unknown) | undefined;
  if (typeof zodConvert === 'function') converters.zod = (schema) => zodConvert(schema, { target: 'draft-2020-12', io: 'input' });
  const valibot = await load('@valibot/to-json-schema');
  const valibotConvert = valibot?.toJsonSchema as ((schema: unknown, options: object) => unknown) | undefined;
  if (typeof valibotConvert === 'function') converters.valibot = (schema) => valibotConvert(schema, { target: 'draft-2020-12' });
  converters.arktype = (schema) => {
    const method = (schema as { toJsonSchema?: unknown }).toJsonSchema;
    if (typeof method !== 'function') throw new Error('this arktype version has no toJsonSchema()');
    return method.call(schema) as unknown;
  };
  return converters;
}
