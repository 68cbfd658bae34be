import type { LanguageModelV3 } from '@ai-sdk/provider';
import { AiError } from '../errors.js';
import type { BedrockModelConfig, OpenAICompatibleModelConfig } from './model-config.js';

/**
 * The provider's model, loaded on first use: a function that only uses the mock (or only Bedrock) never loads the
 * other providers' code, and a key read from a secret is read once, at the first call.
 */
export function providerModelLoader(config: BedrockModelConfig | OpenAICompatibleModelConfig, env: NodeJS.ProcessEnv = process.env): () => Promise<LanguageModelV3> {
  let loading: Promise<LanguageModelV3> | undefined;
  return () => {
    loading ??= (config.provider === 'bedrock' ? loadBedrock(config, env) : loadOpenAICompatible(config, env)).catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}

async function loadBedrock(config: BedrockModelConfig, env: NodeJS.ProcessEnv): Promise<LanguageModelV3> {
  const { createAmazonBedrock } = await import('@ai-sdk/amazon-bedrock');
  // No API key: SigV4 with the credentials Lambda puts in the function's environment (its role), and its region.
  const region = config.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  return createAmazonBedrock(region ? { region } : {}).languageModel(config.model);
}

async function loadOpenAICompatible(config: OpenAICompatibleModelConfig, env: NodeJS.ProcessEnv): Promise<LanguageModelV3> {
  const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
  const apiKey = await resolveApiKey(config, env);
  return createOpenAICompatible({ name: config.name ?? 'openai-compatible', baseURL: config.baseURL, ...(apiKey === undefined ? {} : { apiKey }) }).chatModel(config.model);
}

async function resolveApiKey(config: OpenAICompatibleModelConfig, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  if (typeof config.apiKey === 'function') return config.apiKey();
  if (config.apiKey !== undefined) return config.apiKey;
  if (config.apiKeyEnv === undefined) return undefined;
  const value = env[config.apiKeyEnv];
  if (!value) throw new AiError('FW_ERR_AI_API_KEY_MISSING', `The OpenAI-compatible model ${config.model} reads its API key from ${config.apiKeyEnv}, which is not set: set it (locally in .env, deployed from a secret).`);
  return value;
}
