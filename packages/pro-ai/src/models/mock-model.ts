import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Content, LanguageModelV3GenerateResult, LanguageModelV3StreamPart, LanguageModelV3Usage } from '@ai-sdk/provider';
import { AiError } from '../errors.js';

/** A tool call the mock model makes: the tool's name and its arguments. */
export interface MockToolCall {
  readonly tool: string;
  readonly args: unknown;
}

/**
 * One answer of the mock model: a text, an object (sent as JSON text, what a model does for structured output),
 * tool calls, or an error to throw (a throttle, an outage). `usage` overrides the counted tokens.
 */
export type MockResponse =
  | string
  | {
      readonly text?: string;
      readonly object?: unknown;
      readonly toolCalls?: readonly MockToolCall[];
      readonly throw?: unknown;
      readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
    };

/** A tool's result as the mock model sees it in the conversation (the agent ran the tool it asked for). */
export interface MockToolResult {
  readonly tool: string;
  /** The result (a tool's return value), or the error text when the tool failed. */
  readonly output: unknown;
  readonly isError: boolean;
}

/** What a script sees of one call. */
export interface MockCall {
  /** 0 for the first call of this model, 1 for the next, ... */
  readonly index: number;
  /** The text of the last user message. */
  readonly lastUserText: string;
  /** The system prompt, when there is one. */
  readonly system?: string;
  /** Results of the tools called since the last user message (an agent's loop), oldest first. */
  readonly toolResults: readonly MockToolResult[];
  /** Names of the tools the caller offers. */
  readonly tools: readonly string[];
  /** Whether the caller asks for JSON (structured output). */
  readonly wantsJson: boolean;
  /** The whole prompt, in the ai SDK's provider format. */
  readonly prompt: LanguageModelV3CallOptions['prompt'];
}

/** Options of `createMockModel`: a fixed list of answers, or a script that computes each one. */
export interface MockModelOptions {
  /**
   * The answers, in call order. A call past the end throws `FW_ERR_AI_MOCK_EXHAUSTED`.
   * @default - none (then `script`, or an echo of the last user message)
   */
  readonly responses?: readonly MockResponse[];
  /**
   * Computes each answer from the call (deterministic as long as the script is).
   * @default - none
   */
  readonly script?: (call: MockCall) => MockResponse | Promise<MockResponse>;
  /**
   * The model id it reports.
   * @default 'mock-model'
   */
  readonly modelId?: string;
}

/** A mock model plus what it was asked: `calls` (the ai SDK's provider call options, in order). */
export interface MockModel extends LanguageModelV3 {
  readonly calls: readonly LanguageModelV3CallOptions[];
}

/**
 * A deterministic model for tests and `fw dev` (no network, no key), an ai SDK language model (`LanguageModelV3`):
 * scripted texts, structured objects and tool calls, in `generate` and `stream` alike. Without options it echoes the
 * last user message (`mock: <text>`). Tokens are counted as one per four characters unless a response says.
 */
export function createMockModel(options: MockModelOptions = {}): MockModel {
  if (options.responses !== undefined && options.script !== undefined) {
    throw new AiError('FW_ERR_AI_INVALID_OPTIONS', 'createMockModel: give either responses or script, not both.');
  }
  const calls: LanguageModelV3CallOptions[] = [];
  const next = async (call: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> => {
    const index = calls.length;
    calls.push(call);
    const response = await pick(options, describeCall(index, call));
    if (typeof response === 'object' && response.throw !== undefined) throw response.throw;
    return toResult(response, call, index);
  };
  // The provider interface itself, as the SDK's `MockLanguageModelV3` implements it (ai/test loads the whole SDK,
  // which a function that only uses the mock should not pay for at import).
  return {
    specificationVersion: 'v3',
    provider: 'mock',
    modelId: options.modelId ?? 'mock-model',
    supportedUrls: {},
    calls,
    doGenerate: (call) => next(call),
    doStream: async (call) => ({ stream: toStream(await next(call)) }),
  };
}

/** An error as a provider throws it when throttling (status 429, Bedrock's `ThrottlingException`): for `throw`. */
export function mockThrottlingError(message = 'Rate exceeded'): Error {
  return Object.assign(new Error(message), { name: 'ThrottlingException', $metadata: { httpStatusCode: 429 } });
}

async function pick(options: MockModelOptions, call: MockCall): Promise<MockResponse> {
  if (options.script) return options.script(call);
  if (options.responses) {
    const response = options.responses[call.index];
    if (response === undefined) {
      throw new AiError('FW_ERR_AI_MOCK_EXHAUSTED', `The mock model was called ${call.index + 1} times but has ${options.responses.length} responses: add responses, or pass a script.`);
    }
    return response;
  }
  return `mock: ${call.lastUserText}`;
}

function describeCall(index: number, call: LanguageModelV3CallOptions): MockCall {
  const prompt = call.prompt;
  let lastUser = -1;
  prompt.forEach((message, i) => {
    if (message.role === 'user') lastUser = i;
  });
  const lastUserText =
    lastUser < 0 ? '' : (prompt[lastUser]!.content as ReadonlyArray<{ type: string; text?: string }>).flatMap((part) => (part.type === 'text' && part.text !== undefined ? [part.text] : [])).join('\n');
  const toolResults: MockToolResult[] = [];
  for (const message of prompt.slice(lastUser + 1)) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue;
      const output = part.output;
      const isError = output.type === 'error-text' || output.type === 'error-json';
      const value = 'value' in output ? output.value : undefined;
      toolResults.push({ tool: part.toolName, output: value, isError });
    }
  }
  const system = prompt.find((m) => m.role === 'system');
  return {
    index,
    lastUserText,
    ...(system ? { system: system.content } : {}),
    toolResults,
    tools: (call.tools ?? []).map((t) => t.name),
    wantsJson: call.responseFormat?.type === 'json',
    prompt,
  };
}

function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function toResult(response: MockResponse, call: LanguageModelV3CallOptions, index: number): LanguageModelV3GenerateResult {
  const r = typeof response === 'string' ? { text: response } : response;
  const content: LanguageModelV3Content[] = [];
  const text = r.object !== undefined ? JSON.stringify(r.object) : r.text;
  if (text !== undefined) content.push({ type: 'text', text });
  (r.toolCalls ?? []).forEach((toolCall, i) => {
    content.push({ type: 'tool-call', toolCallId: `mock-call-${index}-${i}`, toolName: toolCall.tool, input: JSON.stringify(toolCall.args ?? {}) });
  });
  const inputTokens = r.usage?.inputTokens ?? estimateTokens(JSON.stringify(call.prompt));
  const outputTokens = r.usage?.outputTokens ?? estimateTokens((text ?? '') + JSON.stringify(r.toolCalls ?? ''));
  const usage: LanguageModelV3Usage = {
    inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: 0 },
  };
  const toolCalling = (r.toolCalls?.length ?? 0) > 0;
  return { content, finishReason: { unified: toolCalling ? 'tool-calls' : 'stop', raw: toolCalling ? 'tool_use' : 'end_turn' }, usage, warnings: [] };
}

/** The same answer as stream parts: text in word-sized deltas, then tool calls, then the finish with usage. */
function toStream(result: LanguageModelV3GenerateResult): ReadableStream<LanguageModelV3StreamPart> {
  const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  result.content.forEach((item, i) => {
    if (item.type === 'text') {
      const id = `text-${i}`;
      parts.push({ type: 'text-start', id });
      for (const delta of item.text.match(/\S+\s*|\s+/g) ?? []) parts.push({ type: 'text-delta', id, delta });
      parts.push({ type: 'text-end', id });
    } else if (item.type === 'tool-call') {
      parts.push(item);
    }
  });
  parts.push({ type: 'finish', finishReason: result.finishReason, usage: result.usage });
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}
