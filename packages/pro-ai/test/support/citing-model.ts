import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';

/** The user message's text of a call (the prompt `answer` built). */
export function promptText(call: LanguageModelV3CallOptions): string {
  return call.prompt
    .filter((m) => m.role === 'user')
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .map((part) => ('text' in part ? part.text : ''))
    .join('\n');
}

/**
 * A scripted model that answers from the sources it is given: it quotes the first sentence of the first `cite`
 * sources and cites each as `[n]`, as a grounded model would. Deterministic; records its calls.
 */
export function citingModel(cite = 2): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    modelId: 'citing-mock',
    doGenerate: async (call) => {
      const prompt = promptText(call);
      const sources = [...prompt.matchAll(/^\[(\d+)\] source: [^\n]*\n([^\n]*)/gm)].slice(0, cite);
      const text = sources.map(([, n, body]) => `${body!.split(/(?<=\.)\s/)[0]} [${n}]`).join(' ');
      return {
        content: [{ type: 'text', text }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: { inputTokens: { total: prompt.length, noCache: undefined, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: text.length, text: undefined, reasoning: undefined } },
        warnings: [],
      };
    },
  });
}
