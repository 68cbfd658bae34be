import type { LanguageModelV3 } from '@ai-sdk/provider';
import { currentTenant, getRootLogger, type Logger } from '@framework/runtime';
import type { ModelMessage, StepResult, ToolSet } from 'ai';
import { AiError } from '../errors.js';
import { runForAiUser } from '../models/ai-caller.js';
import { createModel, tokenUsage, type AiModel, type TokenUsage } from '../models/create-model.js';
import { loadAiSdk } from '../models/ai-sdk.js';
import { checkModelSchema, toModelSchema } from '../models/model-schema.js';
import { keepTrace, type AgentStep, type AgentStopReason, type AgentTrace, type TraceToolCall } from './agent-trace.js';
import type { AgentTool } from './define-tool.js';
import type { ConversationMemory, ConversationOwner } from './memory/conversation-memory.js';

/** Options of `defineAgent`. */
export interface AgentOptions {
  /**
   * The agent's name in logs and traces.
   * @default 'agent'
   */
  readonly name?: string;
  /** The model: a handle from `createModel`, or any ai SDK language model (then wrapped with `createModel`'s defaults). */
  readonly model: AiModel | LanguageModelV3;
  /**
   * The system prompt.
   * @default - none
   */
  readonly instructions?: string;
  /**
   * The tools the model may call, by name (`defineTool`, `functionTool`).
   * @default - none
   */
  readonly tools?: Readonly<Record<string, AgentTool<never, unknown>>>;
  /**
   * The most model calls in one run (each call and the tools it asks for is a step).
   * @default 8
   */
  readonly maxSteps?: number;
  /**
   * The longest a run may take; the run's `ctx` (its remaining time less `reserveMs`) can only make it shorter.
   * @default - the function's remaining time less `reserveMs` when `ctx` is given, else no limit
   */
  readonly timeBudgetMs?: number;
  /**
   * Time left to the function after the agent (to store the answer and respond) when the budget comes from `ctx`.
   * @default 2000
   */
  readonly reserveMs?: number;
  /**
   * Where conversations are kept (`postgresMemory(db)`): a run with `user` and `conversation` continues it.
   * @default - none: each run starts afresh
   */
  readonly memory?: ConversationMemory;
  /**
   * How many past messages a run sends to the model.
   * @default 40
   */
  readonly memoryMessages?: number;
  /**
   * The clock the time budget is measured with (tests move it).
   * @default Date.now
   */
  readonly now?: () => number;
  /**
   * @default - the runtime's root logger
   */
  readonly logger?: Logger;
}

/** One run's input. */
export interface AgentRunInput {
  readonly prompt: string;
  /** The user the run is for: their budget, their usage records, their memory (required with memory). */
  readonly user?: string;
  /**
   * Which of the user's conversations to continue (with memory).
   * @default 'default'
   */
  readonly conversation?: string;
  /** The handler's `ctx` (or a Lambda context): the run ends before the function's time does. */
  readonly ctx?: { getRemainingTimeInMillis(): number };
  readonly abortSignal?: AbortSignal;
}

export interface AgentRunResult {
  /** The model's final text ('' when the run stopped at a limit while the model was still calling tools). */
  readonly text: string;
  readonly stoppedBy: AgentStopReason;
  readonly steps: readonly AgentStep[];
  readonly usage: TokenUsage;
  readonly trace: AgentTrace;
}

export interface Agent {
  readonly name: string;
  run(input: AgentRunInput): Promise<AgentRunResult>;
}

const MEMORY_CUT_NOTE = (reason: AgentStopReason) => `[This answer was cut short: the agent reached its ${reason === 'step-limit' ? 'step limit' : 'time budget'}.]`;

/**
 * An agent: a loop of model calls and tool calls until the model answers, the step limit, or the time budget (within
 * the function's remaining time). Every step is traced (tool calls, arguments, results or errors, tokens, duration);
 * a tool that throws is reported to the model, not a crash.
 */
export function defineAgent(options: AgentOptions): Agent {
  const name = options.name ?? 'agent';
  const maxSteps = options.maxSteps ?? 8;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new AiError('FW_ERR_AI_INVALID_OPTIONS', `defineAgent ${name}: maxSteps must be a whole number >= 1 (got ${String(maxSteps)}).`);
  for (const [key, value] of [['timeBudgetMs', options.timeBudgetMs], ['reserveMs', options.reserveMs], ['memoryMessages', options.memoryMessages]] as const) {
    if (value !== undefined && (!Number.isFinite(value) || value < 0)) throw new AiError('FW_ERR_AI_INVALID_OPTIONS', `defineAgent ${name}: ${key} must be a number >= 0 (got ${String(value)}).`);
  }
  const languageModel = 'languageModel' in options.model ? options.model.languageModel : createModel(options.model).languageModel;
  const tools = options.tools ?? {};
  // Checked now (a schema without JSON Schema fails at definition), converted by the ai SDK at the first run.
  for (const t of Object.values(tools)) checkModelSchema(t.parameters, t.jsonSchema);
  let converting: Promise<Record<string, Awaited<ReturnType<typeof toModelSchema>>>> | undefined;
  const toolSchemas = () =>
    (converting ??= Promise.all(Object.entries(tools).map(async ([toolName, t]) => [toolName, await toModelSchema(t.parameters, t.jsonSchema)] as const)).then((entries) => Object.fromEntries(entries)));
  const reserveMs = options.reserveMs ?? 2000;
  const memoryMessages = options.memoryMessages ?? 40;
  const now = options.now ?? Date.now;

  return {
    name,
    run: (input) =>
      runForAiUser(input.user, async () => {
        const logger = options.logger ?? getRootLogger();
        const tenant = currentTenant();
        const startedAt = now();
        const runId = crypto.randomUUID();
        const owner = memoryOwner(options.memory, input, tenant?.id, name);
        const conversation = input.conversation ?? 'default';
        const history = owner && options.memory ? startAtUserMessage(await options.memory.load(owner, conversation, memoryMessages)) : [];
        const userMessage: ModelMessage = { role: 'user', content: input.prompt };

        const budgets = [options.timeBudgetMs, input.ctx ? input.ctx.getRemainingTimeInMillis() - reserveMs : undefined].filter((b): b is number => b !== undefined);
        const budgetMs = budgets.length > 0 ? Math.max(0, Math.min(...budgets)) : undefined;
        const deadline = budgetMs === undefined ? undefined : startedAt + budgetMs;
        const timeUp = () => deadline !== undefined && now() >= deadline;

        const steps: AgentStep[] = [];
        let lastStepEnd = startedAt;
        let finalText = '';
        let stoppedBy: AgentStopReason = 'done';
        let responseMessages: ModelMessage[] = [];
        const budgetOver = new AbortController();
        const timer = budgetMs === undefined ? undefined : setTimeout(() => budgetOver.abort(new Error(`agent ${name}: time budget of ${budgetMs} ms over`)), budgetMs);
        timer?.unref?.();
        const abortSignal = input.abortSignal ? AbortSignal.any([budgetOver.signal, input.abortSignal]) : budgetOver.signal;
        const { generateText, stepCountIs, tool } = await loadAiSdk();
        const schemas = await toolSchemas();

        const toolSet: ToolSet = Object.fromEntries(
          Object.entries(tools).map(([toolName, t]) => [
            toolName,
            tool({
              description: t.description,
              inputSchema: schemas[toolName]!,
              execute: (args: unknown, call: { abortSignal?: AbortSignal }) =>
                (t as AgentTool<unknown, unknown>).execute(args, {
                  ...(input.user === undefined ? {} : { user: input.user }),
                  ...(tenant ? { tenant } : {}),
                  abortSignal: call.abortSignal ?? abortSignal,
                  step: steps.length,
                }),
            }),
          ]),
        );

        try {
          if (budgetMs === 0) {
            stoppedBy = 'time-budget';
          } else {
            const result = await generateText({
              model: languageModel,
              ...(options.instructions === undefined ? {} : { system: options.instructions }),
              messages: [...history, userMessage],
              tools: toolSet,
              stopWhen: [stepCountIs(maxSteps), timeUp],
              abortSignal,
              maxRetries: 0,
              onStepFinish: (step) => {
                const at = now();
                steps.push(traceStep(steps.length, step, at - lastStepEnd));
                lastStepEnd = at;
                logger.debug('ai agent step', { agent: name, runId, step: steps.length - 1, tools: step.toolCalls.map((c) => c.toolName), totalTokens: step.usage.totalTokens });
              },
            });
            finalText = result.finishReason === 'tool-calls' ? '' : result.text;
            responseMessages = result.response.messages;
            if (result.finishReason === 'tool-calls') stoppedBy = timeUp() ? 'time-budget' : 'step-limit';
          }
        } catch (error) {
          if (!budgetOver.signal.aborted) throw error;
          stoppedBy = 'time-budget';
        } finally {
          if (timer) clearTimeout(timer);
        }

        const usage = sumUsage(steps);
        const trace: AgentTrace = {
          agent: name,
          runId,
          startedAt: new Date(startedAt).toISOString(),
          steps,
          stoppedBy,
          usage,
          durationMs: now() - startedAt,
          ...(tenant ? { tenantId: tenant.id } : {}),
          ...(input.user === undefined ? {} : { userId: input.user }),
        };
        keepTrace(trace);
        logger.info('ai agent run', { agent: name, runId, stoppedBy, steps: steps.length, tools: steps.flatMap((s) => s.toolCalls.map((c) => c.tool)), ...usage, durationMs: trace.durationMs });

        if (owner && options.memory) {
          // A finished turn is stored whole (tool calls and results included); a cut one as the question and a note,
          // so the next turn's prompt never ends on a dangling tool call.
          const turn: ModelMessage[] =
            stoppedBy === 'done'
              ? [userMessage, ...responseMessages]
              : [userMessage, { role: 'assistant', content: [finalText || steps.map((s) => s.text).filter(Boolean).join('\n'), MEMORY_CUT_NOTE(stoppedBy)].filter(Boolean).join('\n') }];
          await options.memory.append(owner, conversation, turn);
        }
        return { text: finalText, stoppedBy, steps, usage, trace };
      }),
  };
}

function memoryOwner(memory: ConversationMemory | undefined, input: AgentRunInput, tenantId: string | undefined, name: string): ConversationOwner | undefined {
  if (!memory) return undefined;
  if (input.user === undefined || input.user === '') {
    throw new AiError('FW_ERR_AI_INVALID_OPTIONS', `Agent ${name} keeps conversations per user: pass user (the token subject, ctx.auth.sub) to run.`);
  }
  return { ...(tenantId === undefined ? {} : { tenantId }), userId: input.user };
}

/** Drops leading messages until a user message: a window cut in the middle of a tool exchange would confuse the model. */
function startAtUserMessage(messages: ModelMessage[]): ModelMessage[] {
  const first = messages.findIndex((m) => m.role === 'user');
  return first < 0 ? [] : messages.slice(first);
}

function traceStep(index: number, step: StepResult<ToolSet>, durationMs: number): AgentStep {
  const toolCalls: TraceToolCall[] = step.toolCalls.map((call) => {
    const result = step.toolResults.find((r) => r.toolCallId === call.toolCallId);
    const failure = step.content.find((part) => part.type === 'tool-error' && part.toolCallId === call.toolCallId) as { error?: unknown } | undefined;
    return {
      tool: call.toolName,
      args: call.input,
      ...(result ? { result: result.output } : {}),
      ...(failure ? { error: failure.error instanceof Error ? failure.error.message : String(failure.error) } : {}),
    };
  });
  return { index, text: step.text, toolCalls, finishReason: step.finishReason, usage: tokenUsage(step.usage), durationMs };
}

function sumUsage(steps: readonly AgentStep[]): TokenUsage {
  return steps.reduce((sum, s) => ({ inputTokens: sum.inputTokens + s.usage.inputTokens, outputTokens: sum.outputTokens + s.usage.outputTokens, totalTokens: sum.totalTokens + s.usage.totalTokens }), {
    inputTokens: 0,
    outputTokens: 0,
    totalTokens: 0,
  });
}
