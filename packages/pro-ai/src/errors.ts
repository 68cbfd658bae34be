import { FrameworkError } from '@framework/core/names';
import { HttpError } from '@framework/runtime';

/**
 * Errors of @framework-pro/ai. Two families, like the runtime's:
 * - HTTP answers (`AI_HTTP_ERROR_CODES`): thrown while serving a request (a budget spent, the model provider still
 *   throttling after the retries), each with its status; the body's message names the fix.
 * - `FW_ERR_AI_*` (`AI_ERROR_CODES`): the app's own mistakes (bad options, a schema that cannot be sent to a model,
 *   a mock script that ran out), thrown at creation or at the call.
 *
 * README.md's error tables list every code; `test/errors.test.ts` keeps them in step.
 */
export const AI_HTTP_ERROR_CODES = {
  AI_BUDGET_EXCEEDED: { status: 429, meaning: "The tenant's (or user's) token budget for the current window is spent; sent with `Retry-After` (seconds until the window ends). Wait, or raise the budget's `limit`." },
  AI_MODEL_THROTTLED: { status: 503, meaning: 'The model provider kept answering "throttled" (429, `ThrottlingException`) after every retry; sent with `Retry-After`. Retry later, or raise the model quota.' },
} as const;

export type AiHttpErrorCode = keyof typeof AI_HTTP_ERROR_CODES;

export const AI_ERROR_CODES = {
  FW_ERR_AI_INVALID_OPTIONS: 'Options given to `createModel`, `createMockModel`, `createTokenBudget`, `defineAgent` or `defineTool` cannot work (unknown provider, no model id, no base URL, a limit that is not a whole number > 0, maxSteps < 1, a tool without description), or an agent run with memory but no user.',
  FW_ERR_AI_SCHEMA_NOT_CONVERTIBLE: 'A Standard Schema given for structured output or tool parameters has no JSON Schema (a library without the Standard JSON Schema interface): pass `jsonSchema` beside it, or use zod 4.2+.',
  FW_ERR_AI_MOCK_EXHAUSTED: 'The mock model was called more often than its `responses` list has entries: add responses, or use `script`.',
  FW_ERR_AI_NO_OBJECT: 'The model answered with text that is not JSON or does not match the schema given to `generateObject`.',
  FW_ERR_AI_API_KEY_MISSING: 'An OpenAI-compatible model names an `apiKeyEnv` variable that is not set.',
  FW_ERR_AI_USAGE: 'An embeddings, vector-store or RAG helper got an argument it cannot use (a collection name, a filter that is not a plain object, a dimension, a chunk size, an empty question).',
  FW_ERR_AI_UNSUPPORTED_DOCUMENT: 'The ingestion pipeline was given a document it cannot extract text from (not plain text, markdown, HTML or PDF), or a PDF it cannot read.',
  FW_ERR_AI_EMBEDDING_MISMATCH: 'An embedding model returned vectors of another dimension than declared (or than the store was migrated for), or a different number of vectors than texts.',
} as const;

export type AiErrorCode = keyof typeof AI_ERROR_CODES;

/** An HTTP answer of this package (429/503), with the shared error body. */
export class AiHttpError extends HttpError {
  constructor(code: AiHttpErrorCode, message: string, details?: unknown, headers?: Readonly<Record<string, string>>) {
    super(AI_HTTP_ERROR_CODES[code].status, code, message, details, headers ? { headers } : undefined);
  }
}

/** A mistake in how the app uses this package, found at creation or at the call. */
export class AiError extends FrameworkError {
  constructor(code: AiErrorCode, message: string, options?: { readonly cause?: unknown }) {
    super(code, message, options);
  }
}

/** An embeddings, vector-store or RAG helper was called with an argument it cannot use. */
export class AiUsageError extends AiError {
  constructor(message: string) {
    super('FW_ERR_AI_USAGE', message);
  }
}

/** The ingestion pipeline cannot extract text from this document. */
export class UnsupportedDocumentError extends AiError {
  constructor(message: string, options?: { readonly cause?: unknown }) {
    super('FW_ERR_AI_UNSUPPORTED_DOCUMENT', message, options);
  }
}

/** An embedding model answered with vectors that do not fit (dimension, count). */
export class EmbeddingMismatchError extends AiError {
  constructor(message: string) {
    super('FW_ERR_AI_EMBEDDING_MISMATCH', message);
  }
}
