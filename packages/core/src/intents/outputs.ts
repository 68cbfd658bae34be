/**
 * The outputs of each intent kind that reach functions through variables: the typed contract between the app model
 * and its two interpreters. Core's variables reference them (`{ kind: 'output', intent, id, output }`); the CDK
 * constructs provide each one as a resource attribute, `fw dev`'s engines as a local value. A kind added here is
 * reported by the compiler wherever an interpreter does not provide it yet.
 */
export const INTENT_OUTPUTS = {
  idempotency: ['tableName'],
  databases: ['host', 'port', 'name', 'secretArn'],
  storage: ['bucket', 'publicUrl'],
  queues: ['url'],
  caches: ['endpoint'],
  auth: ['issuer', 'audience', 'userPoolId', 'resourceServer'],
} as const;

/** The intents whose outputs reach functions through variables. */
export type OutputIntent = keyof typeof INTENT_OUTPUTS;

/** The output names of a kind, e.g. `'host' | 'port' | 'name' | 'secretArn'` for databases. */
export type OutputName<K extends OutputIntent> = (typeof INTENT_OUTPUTS)[K][number];

/** Every output of one intent of kind `K` with its value. */
export type OutputValues<K extends OutputIntent> = { readonly [O in OutputName<K>]: string };

/** What an interpreter provides: kind → intent id → output → value. */
export type IntentOutputValues = { readonly [K in OutputIntent]?: Readonly<Record<string, OutputValues<K>>> };
