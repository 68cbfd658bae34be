/**
 * An event already serialized as JSON: `FunctionHost.invoke` hands the text to the function's thread, which parses
 * it, instead of cloning an object across threads. For events built from a template (a WebSocket message's), where
 * the text costs less to make than the object and is cheaper to send.
 */
export class EventText {
  constructor(readonly json: string) {}
}
