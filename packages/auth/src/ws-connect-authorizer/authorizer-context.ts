import type { AccessToken } from '../verify/access-token.js';

/** What a Lambda authorizer may put into its `context`: API Gateway takes strings, numbers and booleans only. */
export type AuthorizerContext = Record<string, string | number | boolean>;

/**
 * The verified claims as the authorizer's `context`, which API Gateway repeats as `requestContext.authorizer` on every
 * event of the connection: the shape `fw dev`'s WebSocket server gives, and the one the runtime's `wsHandler` reads
 * (`sub`, `scope` space-separated, `cognito:groups`). Arrays become space-separated strings and objects JSON, since
 * the context holds no nested values.
 */
export function authorizerContextOf(token: AccessToken): AuthorizerContext {
  const context: AuthorizerContext = {};
  for (const [name, value] of Object.entries(token.claims)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') context[name] = value;
    else if (Array.isArray(value)) context[name] = value.map(String).join(' ');
    else if (value !== null && value !== undefined) context[name] = JSON.stringify(value);
  }
  return context;
}
