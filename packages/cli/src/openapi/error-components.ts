import type { JsonSchema } from './json-schema.js';

/**
 * The framework's error answers as OpenAPI components: the runtime's one error body
 * (`{ "error": { "code", "message", "requestId", "details"? } }`), its 400 `VALIDATION_FAILED` form with every issue,
 * and the gateway's own 401/403 answers (`{ "message": "Unauthorized" }`: the JWT authorizer answers before the
 * function runs, deployed and under fw dev alike).
 */
export const ERROR_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  ErrorBody: {
    type: 'object',
    description: "The framework's error body (every error a route answers).",
    properties: {
      error: {
        type: 'object',
        properties: {
          code: { type: 'string', description: 'Stable, UPPER_SNAKE (NOT_FOUND, CONFLICT, INTERNAL_ERROR, ...).', examples: ['NOT_FOUND'] },
          message: { type: 'string', description: 'For the client; a 500 never carries an internal message.' },
          requestId: { type: 'string', description: 'The request id, also in the logs.' },
          details: { description: 'What the route attached to the error, if anything.' },
        },
        required: ['code', 'message'],
      },
    },
    required: ['error'],
  },
  ValidationErrorBody: {
    type: 'object',
    description: '400 VALIDATION_FAILED: the request does not match the route\'s schemas; every issue is listed.',
    properties: {
      error: {
        type: 'object',
        properties: {
          code: { type: 'string', enum: ['VALIDATION_FAILED'] },
          message: { type: 'string', examples: ['Invalid request: body.title: Too small: expected string to have >=1 characters'] },
          requestId: { type: 'string' },
          details: {
            type: 'object',
            properties: {
              issues: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    in: { type: 'string', enum: ['body', 'query', 'params', 'headers'] },
                    path: { type: 'array', items: { type: ['string', 'integer'] }, description: 'Keys from the top of that part to the offending value.' },
                    message: { type: 'string' },
                  },
                  required: ['in', 'path', 'message'],
                },
              },
            },
            required: ['issues'],
          },
        },
        required: ['code', 'message', 'details'],
      },
    },
    required: ['error'],
  },
  GatewayMessage: {
    type: 'object',
    description: "The gateway's own answer (before the function runs).",
    properties: { message: { type: 'string', examples: ['Unauthorized'] } },
    required: ['message'],
  },
};

const json = (name: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } });

/** The shared responses operations refer to by status. */
export const ERROR_RESPONSES: Readonly<Record<string, Record<string, unknown>>> = {
  BadRequest: {
    description: 'VALIDATION_FAILED (with every issue) when the request does not match the schemas; INVALID_JSON when the body is not JSON.',
    content: { 'application/json': { schema: { anyOf: [{ $ref: '#/components/schemas/ValidationErrorBody' }, { $ref: '#/components/schemas/ErrorBody' }] } } },
  },
  Unauthorized: { description: 'No valid access token (missing, expired, wrong issuer or audience).', content: json('GatewayMessage') },
  Forbidden: { description: 'The token lacks a scope the route requires.', content: json('GatewayMessage') },
  NotFound: { description: 'NOT_FOUND: nothing at this path or id.', content: json('ErrorBody') },
  InternalError: { description: 'INTERNAL_ERROR: the route failed; the message is fixed, the cause is in the logs under the request id.', content: json('ErrorBody') },
};
