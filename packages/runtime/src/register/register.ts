/**
 * What the app declares, for the type checker: the generated `.fw/types/app.d.ts` (written by `fw dev`, `fw synth`,
 * `fw types` and `npx projen` from the app model) augments this interface with the app's ids and scopes:
 *
 * ```ts
 * declare module '@framework/runtime' {
 *   interface Register {
 *     queues: 'task-events';
 *     functions: { 'task-summary': typeof import('../../src/functions/task-summary.js').main };
 *     buckets: 'attachments';
 *     databases: 'main';
 *     scopes: 'tasks:read' | 'tasks:write';
 *   }
 * }
 * ```
 *
 * Empty here: without the generated file every id and scope is a `string`, as before (the framework's own tests,
 * apps that never ran a generator). Only types read it; nothing changes at run time.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Register {}

/** `Register[K]` when the generated file declares it, else `Otherwise`. */
type Registered<K extends string, Otherwise> = Register extends { readonly [P in K]: infer T } ? T : Otherwise;

/** The app's queue ids (`src/queues/<id>.ts`); any string without the generated types. */
export type QueueId = Registered<'queues', string>;

/** The app's bucket ids (storage intents); any string without the generated types. */
export type BucketId = Registered<'buckets', string>;

/** The app's database ids (database intents); any string without the generated types. */
export type DatabaseId = Registered<'databases', string>;

/** The scopes of `config/security.ts` (bare names: `tasks:write`); any string without the generated types. */
export type AppScope = Registered<'scopes', string>;

/** The app's standalone functions by id, each the type of its file's `main` export (empty without the generated types). */
export type AppFunctions = Registered<'functions', Record<string, unknown>>;

/** The app's standalone function ids (`src/functions/<id>.ts`); any string without the generated types. */
export type FunctionId = Registered<'functions', never> extends never ? string : Extract<keyof AppFunctions, string>;

/** The event a function's `main` takes (its `taskHandler<TEvent>` type), `unknown` when it does not say. */
export type FunctionPayload<F extends string> = F extends keyof AppFunctions
  ? AppFunctions[F] extends (event: infer E, ...rest: never[]) => unknown
    ? E
    : unknown
  : unknown;

/** What a function's `main` resolves to, `unknown` when it does not say. */
export type FunctionResult<F extends string> = F extends keyof AppFunctions ? (AppFunctions[F] extends (...args: never[]) => infer R ? Awaited<R> : unknown) : unknown;
