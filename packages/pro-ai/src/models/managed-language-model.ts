import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3GenerateResult, LanguageModelV3StreamPart, LanguageModelV3StreamResult, LanguageModelV3Usage } from '@ai-sdk/provider';
import { currentTenant, getRootLogger, type Logger } from '@framework/runtime';
import { AiHttpError } from '../errors.js';
import { currentAiUser } from './ai-caller.js';
import { ThrottledAfterRetries, withThrottleRetry, type ResolvedRetry } from './throttle-retry.js';
import type { TokenBudget } from './token-budget.js';
import type { ModelUsage, UsageSink } from './usage-sink.js';

/** What wraps every call of a managed model. */
export interface ManagedModelSettings {
  readonly provider: string;
  readonly modelId: string;
  readonly retry: ResolvedRetry;
  readonly usage: readonly UsageSink[];
  readonly budget?: TokenBudget;
  readonly logger?: Logger;
}

/**
 * A language model (the ai SDK's provider interface) that does, around every call the ai SDK makes (one per agent
 * step): the budget check, retries on throttling, the usage log line and the usage sinks. Everything built on the ai
 * SDK (agents, `answer`, the app's own `generateText`) gets them by using this model.
 */
export class ManagedLanguageModel implements LanguageModelV3 {
  public readonly specificationVersion = 'v3';
  public readonly provider: string;
  public readonly modelId: string;
  // The provider's own URL support is only known once it is loaded; none means files are downloaded and inlined.
  public readonly supportedUrls: Record<string, RegExp[]> = {};

  constructor(
    private readonly load: () => Promise<LanguageModelV3>,
    private readonly settings: ManagedModelSettings,
  ) {
    this.provider = settings.provider;
    this.modelId = settings.modelId;
  }

  public async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const call = await this.begin();
    const model = await this.load();
    const { value, attempts } = await this.retrying(() => model.doGenerate(options), call);
    await this.finish(call, value.usage, attempts, 'generate');
    return value;
  }

  public async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const call = await this.begin();
    const model = await this.load();
    // Only opening the stream is retried: once parts flowed to the caller, repeating would send them twice.
    const { value, attempts } = await this.retrying(() => model.doStream(options), call);
    const record = (usage: LanguageModelV3Usage) => this.finish(call, usage, attempts, 'stream');
    const metered = value.stream.pipeThrough(
      new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
        async transform(part, controller) {
          if (part.type === 'finish') await record(part.usage);
          controller.enqueue(part);
        },
      }),
    );
    return { ...value, stream: metered };
  }

  private async begin(): Promise<CallState> {
    const tenantId = currentTenant()?.id;
    const userId = currentAiUser();
    const subject = { ...(tenantId === undefined ? {} : { tenantId }), ...(userId === undefined ? {} : { userId }) };
    if (this.settings.budget) await this.settings.budget.check(subject);
    return { subject, startedAt: Date.now() };
  }

  private async retrying<T>(call: () => PromiseLike<T>, state: CallState): Promise<{ value: T; attempts: number }> {
    const logger = this.logger();
    try {
      return await withThrottleRetry(call, this.settings.retry, (retry, delayMs) =>
        logger.warn('ai model throttled, retrying', { provider: this.provider, model: this.modelId, retry, delayMs }),
      );
    } catch (error) {
      if (!(error instanceof ThrottledAfterRetries)) throw error;
      logger.error('ai model throttled after every retry', { provider: this.provider, model: this.modelId, attempts: error.attempts, ...state.subject });
      throw new AiHttpError(
        'AI_MODEL_THROTTLED',
        `The AI model is busy (throttled after ${error.attempts} attempts): retry in ${error.retryAfterSeconds} s.`,
        undefined,
        { 'retry-after': String(error.retryAfterSeconds) },
      );
    }
  }

  private async finish(state: CallState, raw: LanguageModelV3Usage, attempts: number, operation: 'generate' | 'stream'): Promise<void> {
    const inputTokens = raw.inputTokens.total ?? 0;
    const outputTokens = raw.outputTokens.total ?? 0;
    const usage: ModelUsage = { provider: this.provider, modelId: this.modelId, inputTokens, outputTokens, totalTokens: inputTokens + outputTokens, ...state.subject };
    const logger = this.logger();
    logger.info('ai model call', { ...usage, operation, attempts, durationMs: Date.now() - state.startedAt });
    const sinks = this.settings.budget ? [this.settings.budget, ...this.settings.usage] : this.settings.usage;
    await Promise.all(
      sinks.map(async (sink) => {
        try {
          await sink.record(usage);
        } catch (error) {
          // The answer exists and was paid for: a failing meter is an operations problem, not the caller's.
          logger.error('ai usage not recorded', { ...usage, error });
        }
      }),
    );
  }

  private logger(): Logger {
    return this.settings.logger ?? getRootLogger();
  }
}

interface CallState {
  readonly subject: { readonly tenantId?: string; readonly userId?: string };
  readonly startedAt: number;
}
