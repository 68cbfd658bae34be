import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

/**
 * Fastify's schema compilers, loaded on first use. Given none, Fastify requires Ajv and fast-json-stringify when the
 * instance is created: about 0.2 s of `fw dev`'s launch (the largest single item of its module loading), for a
 * gateway that declares no route schema. A route given a schema later still gets Fastify's own compilers, the very
 * packages Fastify depends on (resolved from Fastify's folder), with the same arguments.
 */
export function lazySchemaCompilers(): CompilersFactory {
  const fromFastify = () => createRequire(createRequire(import.meta.url).resolve('fastify'));
  type Selector = () => (...args: unknown[]) => unknown;
  let validator: ((...args: unknown[]) => unknown) | undefined;
  let serializer: ((...args: unknown[]) => unknown) | undefined;
  return {
    buildValidator: ((...args: unknown[]) => (validator ??= (fromFastify()('@fastify/ajv-compiler') as Selector)())(...args)) as CompilersFactory['buildValidator'],
    buildSerializer: ((...args: unknown[]) => (serializer ??= (fromFastify()('@fastify/fast-json-stringify-compiler') as Selector)())(...args)) as CompilersFactory['buildSerializer'],
  };
}
