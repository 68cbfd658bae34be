/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) as a plain object. */
export type JsonSchema = Record<string, unknown>;

/** A converter of one schema library, loaded from the project's own packages (`@valibot/to-json-schema`, ...). */
export type VendorConverter = (schema: unknown) => unknown;

/** What a schema became: its JSON Schema, and why it is incomplete or empty when it is. */
export interface ConvertedSchema {
  readonly schema: JsonSchema;
  /** Set when the schema could not be converted, or only in part: the reason, also in the schema's `description`. */
  readonly problem?: string;
}

const TARGET = 'draft-2020-12';

interface StandardProps {
  readonly vendor?: unknown;
  readonly jsonSchema?: { readonly input?: unknown };
}

/**
 * A route schema as JSON Schema, for the document: the shape a client SENDS (the schema's input side: a request part
 * before parsing, a response value as `fn` returns it, which is what goes out).
 *
 * Order: the Standard JSON Schema interface when the schema implements it (`~standard.jsonSchema.input`, zod 4.2+),
 * else the vendor's own converter (`converters[vendor]`). A schema that cannot be converted (a `Date`, a custom check,
 * a library without converter) is documented as `{}` with a description saying so: the document is still written.
 * Where the library can leave just the unrepresentable parts open (zod's `unrepresentable: 'any'`), only those are.
 */
export function toJsonSchema(schema: unknown, converters: Readonly<Record<string, VendorConverter | undefined>> = {}): ConvertedSchema {
  const standard = (typeof schema === 'object' || typeof schema === 'function') && schema !== null ? (schema as { '~standard'?: StandardProps })['~standard'] : undefined;
  if (typeof standard !== 'object' || standard === null) return unconvertible('it is not a Standard Schema (no "~standard" property)');
  const vendor = typeof standard.vendor === 'string' ? standard.vendor : 'unknown';
  const input = standard.jsonSchema?.input;
  if (typeof input === 'function') {
    const generate = (libraryOptions?: Record<string, unknown>) => input.call(standard.jsonSchema, { target: TARGET, ...(libraryOptions ? { libraryOptions } : {}) }) as unknown;
    try {
      return converted(generate());
    } catch (error) {
      const reason = messageOf(error);
      try {
        const partial = converted(generate({ unrepresentable: 'any' }));
        if (partial.problem) return partial;
        return { schema: { ...partial.schema, description: describe(partial.schema, `Partly documented: ${reason}; those parts accept any value here.`) }, problem: reason };
      } catch {
        return unconvertible(reason);
      }
    }
  }
  const converter = converters[vendor];
  if (!converter) return unconvertible(`${vendor} schemas do not implement the Standard JSON Schema interface and no converter for ${vendor} is installed${vendor === 'valibot' ? ' (add @valibot/to-json-schema to the project)' : ''}`);
  try {
    return converted(converter(schema));
  } catch (error) {
    return unconvertible(messageOf(error));
  }
}

function converted(value: unknown): ConvertedSchema {
  if (value === true) return { schema: {} };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return unconvertible('the converter returned no JSON Schema object');
  // The document declares the dialect once (`jsonSchemaDialect`); a `$schema` per schema would only repeat it.
  const { $schema: _dialect, ...schema } = value as JsonSchema;
  return { schema };
}

function unconvertible(reason: string): ConvertedSchema {
  return { schema: { description: `Not documented: this schema cannot be converted to JSON Schema (${reason}).` }, problem: reason };
}

function describe(schema: JsonSchema, note: string): string {
  return typeof schema.description === 'string' && schema.description ? `${schema.description}\n\n${note}` : note;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
