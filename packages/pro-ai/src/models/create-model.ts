import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { Logger, StandardSchemaV1 } from '@framework/runtime';
import type { LanguageModelUsage, ModelMessage } from 'ai';
import { AiError } from '../errors.js';
import { loadAiSdk } from './ai-sdk.js';
import { runForAiUser } from './ai-caller.js';
import { ManagedLanguageModel } from './managed-language-model.js';
import { createMockModel } from './mock-model.js';
import type { ModelConfig } from './model-config.js';
import { toModelSchema, type JsonSchemaObject } from './model-schema.js';
import { providerModelLoader } from './provider-model.js';
import { resolveRetry, type RetryOptions } from './throttle-retry.js';
import type { TokenBudget } from './token-budget.js';
import type { UsageSink } from './usage-sink.js';

/** Options of `createModel`: what happens around every call. */
export interface ModelOptions {
  /**
   * Retries with backoff when the provider throttles.
   * @default - 4 attempts, 250 ms doubling to at most 8 s, with jitter
   */
  readonly retry?: RetryOptions;
  /**
   * Where each call's tokens go besides the log line (billing: `billingUsageSink(track)`).
   * @default - none
   */
  readonly usage?: UsageSink | readonly UsageSink[];
  /**
   * Checked before each call (429 `AI_BUDGET_EXCEEDED` when spent) and charged after it.
   * @default - no budget
   */
  readonly budget?: TokenBudget;
  /**
   * @default - the runtime's root logger
   */
  readonly logger?: Logger;
  /**
   * The environment provider settings are read from (`AWS_REGION`, `apiKeyEnv`).
   * @default process.env
   */
  readonly env?: NodeJS.ProcessEnv;
}

/** What to ask: a prompt, or a conversation; and for whom. */
export interface GenerateInput {
  /** A single user message (or give `messages`). */
  readonly prompt?: string;
  /** The conversation, in the ai SDK's message format. */
  readonly messages?: readonly ModelMessage[];
  readonly system?: string;
  /** The user the call is for (budget per user, usage records): the token subject, usually `ctx.auth.sub`. */
  readonly user?: string;
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
  readonly abortSignal?: AbortSignal;
}

/** Tokens of a call (or of every step of a multi-step call). */
export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
}

export interface GenerateResult {
  readonly text: string;
  readonly usage: TokenUsage;
  readonly finishReason: string;
}

export interface GenerateObjectInput<T> extends GenerateInput {
  /** The shape of the answer: a Standard Schema (zod, valibot, arktype); the answer is validated with it. */
  readonly schema: StandardSchemaV1<unknown, T>;
  /**
   * The JSON Schema sent to the model, for a library without the Standard JSON Schema interface (valibot).
   * @default - from the schema
   */
  readonly jsonSchema?: JsonSchemaObject;
}

export interface GenerateObjectResult<T> {
  readonly object: T;
  readonly usage: TokenUsage;
}

export interface StreamResult {
  /** The answer's text as it arrives; throws the error that ended the stream early (a spent budget, a throttle). */
  readonly textStream: AsyncIterable<string>;
  /** The whole text, once the stream ended. */
  readonly text: PromiseLike<string>;
  readonly usage: PromiseLike<TokenUsage>;
}

/**
 * A model handle: the managed ai SDK model (`languageModel`, for the ai SDK's own functions and for agents) and
 * the common calls on it.
 */
export interface AiModel {
  readonly provider: string;
  readonly modelId: string;
  /** The ai SDK model with budget, retries, usage and log line around every call. */
  readonly languageModel: LanguageModelV3;
  generate(input: GenerateInput): Promise<GenerateResult>;
  /** Structured output: an object matching `schema` (`FW_ERR_AI_NO_OBJECT` when the model's answer does not). */
  generateObject<T>(input: GenerateObjectInput<T>): Promise<GenerateObjectResult<T>>;
  /** Streamed text (send it to a WebSocket client with `streamToWebSocket`). */
  stream(input: GenerateInput): StreamResult;
}

/**
 * A model from configuration (Bedrock, an OpenAI-compatible endpoint, the mock) or any ai SDK language model (a
 * provider the package does not configure, a test's own mock), with budget, retries, usage and log line around
 * every call.
 */
export function createModel(source: ModelConfig | LanguageModelV3, options: ModelOptions = {}): AiModel {
  const retry = resolveRetry(options.retry);
  const usage = options.usage === undefined ? [] : Array.isArray(options.usage) ? [...(options.usage as readonly UsageSink[])] : [options.usage as UsageSink];
  const { provider, modelId, load } = resolveSource(source, options.env ?? process.env);
  const languageModel = new ManagedLanguageModel(load, {
    provider,
    modelId,
    retry,
    usage,
    ...(options.budget ? { budget: options.budget } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  return {
    provider,
    modelId,
    languageModel,
    generate: (input) =>
      runForAiUser(input.user, async () => {
        const { generateText } = await loadAiSdk();
        const result = await generateText({ ...callSettings(input), model: languageModel });
        return { text: result.text, usage: tokenUsage(result.totalUsage), finishReason: result.finishReason };
      }),
    generateObject: <T>(input: GenerateObjectInput<T>) =>
      runForAiUser(input.user, async () => {
        const schema = await toModelSchema(input.schema, input.jsonSchema);
        const { generateText, NoObjectGeneratedError, Output } = await loadAiSdk();
        try {
          const result = await generateText({ ...callSettings(input), model: languageModel, output: Output.object({ schema }) });
          return { object: result.output as T, usage: tokenUsage(result.totalUsage) };
        } catch (error) {
          if (!NoObjectGeneratedError.isInstance(error)) throw error;
          throw new AiError('FW_ERR_AI_NO_OBJECT', `The model ${modelId} did not answer with an object matching the schema: ${error.message}`, { cause: error });
        }
      }),
    stream: (input) => {
      // The SDK turns a failed stream into "no output generated"; the caller gets the error that failed it instead
      // (a spent budget stays a 429, a throttle a 503).
      let failure: unknown;
      // The call starts once the SDK is loaded (at once after the first call), as the caller's user.
      const started = loadAiSdk().then(({ streamText }) =>
        runForAiUser(input.user, () => streamText({ ...callSettings(input), model: languageModel, onError: ({ error }) => void (failure ??= error) })),
      );
      started.catch(() => undefined); // a failed load reaches the caller through textStream, text or usage
      const rethrow = (error: unknown): never => {
        throw failure ?? error;
      };
      async function* textStream(): AsyncGenerator<string> {
        for await (const part of (await started).textStream) yield part;
        if (failure !== undefined) throw failure;
      }
      // Getters: a promise is made only when asked for, so one nobody awaits never rejects unhandled.
      return {
        textStream: textStream(),
        get text() {
          return started.then((result) => result.text).catch(rethrow);
        },
        get usage() {
          return started.then((result) => result.totalUsage).then(tokenUsage, rethrow);
        },
      };
    },
  };
}

function resolveSource(source: ModelConfig | LanguageModelV3, env: NodeJS.ProcessEnv): { provider: string; modelId: string; load: () => Promise<LanguageModelV3> } {
  if ('specificationVersion' in source) return { provider: source.provider, modelId: source.modelId, load: () => Promise.resolve(source) };
  const config = source as ModelConfig;
  switch (config.provider) {
    case 'mock': {
      const { provider: _provider, ...mockOptions } = config;
      const mock = createMockModel(mockOptions);
      return { provider: 'mock', modelId: mock.modelId, load: () => Promise.resolve(mock) };
    }
    case 'bedrock':
    case 'openai-compatible': {
      if (typeof config.model !== 'string' || config.model === '') throw new AiError('FW_ERR_AI_INVALID_OPTIONS', `createModel: a ${config.provider} model needs its model id (model: '...').`);
      if (config.provider === 'openai-compatible' && (typeof config.baseURL !== 'string' || !/^https?:\/\//.test(config.baseURL))) {
        throw new AiError('FW_ERR_AI_INVALID_OPTIONS', `createModel: an openai-compatible model needs baseURL, an http(s) URL (got ${JSON.stringify(config.baseURL)}).`);
      }
      const provider = config.provider === 'bedrock' ? 'amazon-bedrock' : (config.name ?? 'openai-compatible');
      return { provider, modelId: config.model, load: providerModelLoader(config, env) };
    }
    default:
      throw new AiError('FW_ERR_AI_INVALID_OPTIONS', `createModel: unknown provider ${JSON.stringify((config as { provider?: unknown }).provider)}: use 'bedrock', 'openai-compatible' or 'mock' (or pass an ai SDK model).`);
  }
}

/** The ai SDK call settings of an input; the SDK's own retries are off (ours know Bedrock's throttling). */
function callSettings(input: GenerateInput) {
  const prompt = input.messages !== undefined ? { messages: [...input.messages] } : { prompt: input.prompt ?? '' };
  return {
    ...prompt,
    ...(input.system === undefined ? {} : { system: input.system }),
    ...(input.maxOutputTokens === undefined ? {} : { maxOutputTokens: input.maxOutputTokens }),
    ...(input.temperature === undefined ? {} : { temperature: input.temperature }),
    ...(input.abortSignal === undefined ? {} : { abortSignal: input.abortSignal }),
    maxRetries: 0,
  };
}

export function tokenUsage(usage: LanguageModelUsage): TokenUsage {
  const inputTokens = usage.inputTokens ?? 0;
  const outputTokens = usage.outputTokens ?? 0;
  return { inputTokens, outputTokens, totalTokens: usage.totalTokens ?? inputTokens + outputTokens };
}
