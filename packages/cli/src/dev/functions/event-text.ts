/** Marks an `EventText` (a registered symbol, the same in every copy of this module). */
const EVENT_TEXT = Symbol.for('framework.dev.EventText');

/**
 * An event already serialized as JSON: `FunctionHost.invoke` hands the text to the function's thread, which parses
 * it, instead of cloning an object across threads. For events built from a template (a WebSocket message's), where
 * the text costs less to make than the object and is cheaper to send.
 */
export class EventText {
  readonly [EVENT_TEXT] = true;
  constructor(readonly json: string) {}

  /**
   * Whether `value` is an `EventText`. Not `instanceof`: the WebSocket engine's module is imported on first use, and a
   * loader that evaluates this module a second time for that import (tsx does, under the tests) makes a second class.
   */
  static is(value: unknown): value is EventText {
    return typeof value === 'object' && value !== null && (value as { [EVENT_TEXT]?: unknown })[EVENT_TEXT] === true;
  }
}
