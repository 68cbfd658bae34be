/**
 * The kinds of handler a module's `main` can declare itself as (`handlerInfo.kind`), one key each: the runtime's own
 * `http` (`handler`, also a plain Lambda handler) and `task` (`taskHandler`) here; an intent kind that brings its own
 * handler adds its key from its module (`declare module '../handlers/handler-kind.js' { interface HandlerKinds { ws:
 * true } }`) and its entry in the registry's `KIND_HANDLERS`, which the compiler then asks for.
 */
export interface HandlerKinds {
  readonly http: true;
  readonly task: true;
}

/** A handler's kind: `http`, `task`, or one an intent kind brings (`ws`). */
export type HandlerKind = keyof HandlerKinds;

/** The handler kinds of the runtime itself, which no intent kind owns. */
export type RuntimeHandlerKind = 'http' | 'task';
