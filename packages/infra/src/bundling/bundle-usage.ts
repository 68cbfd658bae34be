import type { Metafile } from 'esbuild';
import { referencesAny, type FunctionReferences } from './bundle-references.js';

/** What a function uses, inferred from the packages its bundle imports and the resources its own files name. */
export interface FunctionNeeds {
  /** It talks to a database of the app: joins the VPC, may read the credentials secret, reaches the database port. */
  readonly database: boolean;
  /** It talks to a cache of the app: joins the VPC and reaches the cache port. */
  readonly cache: boolean;
  /** It uses some of the app's buckets (`FunctionReferences.buckets`). */
  readonly storage: boolean;
  /** It sends to some of the app's queues (`FunctionReferences.queues`). */
  readonly queueSend: boolean;
  /** It invokes some of the app's standalone functions (`FunctionReferences.functions`). */
  readonly invoke: boolean;
  /** It uses the idempotency / saga table. */
  readonly idempotency: boolean;
}

/**
 * The packages that mark a need. A function that imports none of a need's packages gets no grant (and no VPC
 * placement) for it: least privilege without asking the user to declare anything. Queues, functions and buckets are
 * granted per id from `referencesOf` instead: every bundle imports the runtime, so a package says nothing there.
 */
export const NEED_MARKERS: Readonly<Record<'database' | 'cache' | 'idempotency', readonly string[]>> = {
  database: ['@framework/data', 'pg', 'pg-pool', 'postgres', '@neondatabase/serverless', 'kysely', 'drizzle-orm'],
  cache: ['ioredis', 'redis', 'iovalkey', '@valkey/valkey-glide', '@redis/client'],
  idempotency: ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb'],
};

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`; relative, absolute and `node:` specifiers → undefined. */
export function packageNameOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:') || /^[A-Za-z]:[\\/]/.test(specifier)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? (parts.length >= 2 ? `${parts[0]}/${parts[1]}` : undefined) : parts[0];
}

/** Every bare package imported by any input file that went into one output (the output's whole import graph). */
export function packagesOfOutput(metafile: Metafile, outputKey: string): Set<string> {
  const packages = new Set<string>();
  const output = metafile.outputs[outputKey];
  if (!output) return packages;
  for (const inputPath of Object.keys(output.inputs)) {
    for (const imported of metafile.inputs[inputPath]?.imports ?? []) {
      const name = packageNameOf(imported.original ?? imported.path);
      if (name) packages.add(name);
    }
  }
  // External imports of the entry itself are not in `inputs` of the output; they are listed on the output.
  for (const imported of output.imports) {
    if (imported.external) {
      const name = packageNameOf(imported.path);
      if (name) packages.add(name);
    }
  }
  return packages;
}

const NO_REFERENCES: FunctionReferences = { queues: [], functions: [], buckets: [], bucketWrites: false, wsSends: false, wsRegistry: false, wsPublishes: false };

/** The needs of one function from its packages, the idempotency its handler declares and the ids its files name. */
export function needsOf(packages: ReadonlySet<string>, declaredIdempotent = false, references: FunctionReferences = NO_REFERENCES): FunctionNeeds {
  const uses = (need: keyof typeof NEED_MARKERS) => NEED_MARKERS[need].some((p) => packages.has(p));
  return {
    database: uses('database'),
    cache: uses('cache'),
    storage: referencesAny(references.buckets),
    queueSend: referencesAny(references.queues),
    invoke: referencesAny(references.functions),
    idempotency: declaredIdempotent || uses('idempotency'),
  };
}
