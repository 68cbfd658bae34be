import { FrameworkError } from '@framework/core';

/**
 * Errors of @framework/infra. Each has a stable code; README.md's error table lists code, cause and fix, and
 * `test/errors.test.ts` keeps the two in step.
 */
export const INFRA_ERROR_CODES = {
  FW_ERR_INFRA_BUNDLE: 'esbuild could not bundle one or more handler files.',
  FW_ERR_INFRA_HANDLER_LOAD: 'A bundled handler threw while being imported to read its declared scopes.',
  FW_ERR_INFRA_HANDLER_EXPORT: 'A handler file does not export a function named `main`.',
  FW_ERR_INFRA_SCOPES_WITHOUT_AUTH: 'A route declares scopes but the app has no auth intent to issue tokens.',
  FW_ERR_INFRA_UNDECLARED_SCOPE: 'A route declares a scope that security.scopes does not declare.',
  FW_ERR_INFRA_APP_CLIENT_FLOWS: 'An app client combines client_credentials with a browser flow, which Cognito refuses.',
  FW_ERR_INFRA_TENANT_MAPPING: 'An identity provider maps a claim to custom:tenant_id, which no app client may write.',
  FW_ERR_INFRA_INVALID_PROP: 'A prop of FrameworkStack has a value it cannot use (for example routeShards).',
  FW_ERR_INFRA_ENGINE_VERSION: 'A database intent names a PostgreSQL major that @framework/infra does not pin.',
  FW_ERR_INFRA_UNREACHABLE_SERVICE: 'A function in an isolated subnet calls an AWS service the VPC has no route to.',
  FW_ERR_INFRA_UNKNOWN_OUTPUT: 'The app model asks for an intent output the constructs do not provide.',
} as const;

export type InfraErrorCode = keyof typeof INFRA_ERROR_CODES;

/** An error of the cloud interpreter; its message names the problem and the fix. */
export class InfraError extends FrameworkError {
  constructor(code: InfraErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
