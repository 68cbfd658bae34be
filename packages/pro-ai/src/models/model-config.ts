import type { MockModelOptions } from './mock-model.js';

/**
 * Amazon Bedrock through the Lambda role: no API key (the SDK's default credential chain: the function's role
 * deployed, the developer's profile locally), the region from the environment (`AWS_REGION`) unless given.
 */
export interface BedrockModelConfig {
  readonly provider: 'bedrock';
  /** A Bedrock model id or inference profile id (`anthropic.claude-3-5-haiku-20241022-v1:0`, `us.amazon.nova-lite-v1:0`). */
  readonly model: string;
  /**
   * @default - `AWS_REGION` from the environment
   */
  readonly region?: string;
}

/** Any endpoint speaking the OpenAI chat completions API (a gateway, vLLM, Ollama, LM Studio, a hosted provider). */
export interface OpenAICompatibleModelConfig {
  readonly provider: 'openai-compatible';
  readonly model: string;
  /** The API's base URL (`http://127.0.0.1:11434/v1`). */
  readonly baseURL: string;
  /**
   * The provider name in logs and usage records.
   * @default 'openai-compatible'
   */
  readonly name?: string;
  /**
   * The API key, or a function that reads it (from Secrets Manager, once per cold start).
   * @default - the variable named by `apiKeyEnv`, else no key
   */
  readonly apiKey?: string | (() => Promise<string>);
  /**
   * The environment variable holding the key (read at the first call; missing: `FW_ERR_AI_API_KEY_MISSING`).
   * @default - none
   */
  readonly apiKeyEnv?: string;
}

/** The deterministic mock model (`createMockModel`): tests and `fw dev` without a network. */
export interface MockModelConfig extends MockModelOptions {
  readonly provider: 'mock';
}

/** Which model `createModel` talks to. */
export type ModelConfig = BedrockModelConfig | OpenAICompatibleModelConfig | MockModelConfig;
