import type { LanguageModel, LanguageModelUsage } from 'ai';
import { loadAiSdk } from '../models/ai-sdk.js';
import { AiUsageError } from '../errors.js';
import type { MetadataFilter } from '../vector/metadata-filter.js';
import type { SearchHit, SearchMode, VectorStore } from '../vector/vector-store.js';

/** The answer when retrieval finds nothing (the model is not called), or when the model says the sources lack it. */
export const NOT_FOUND_ANSWER = 'Not found in the sources.';

export interface AnswerOptions {
  readonly store: VectorStore;
  readonly collection: string;
  /** @default - none */
  readonly filter?: MetadataFilter;
  /** Any ai-SDK language model (Bedrock, OpenAI-compatible, a mock in tests). */
  readonly model: LanguageModel;
  /** Chunks given to the model. @default 5 */
  readonly k?: number;
  /** @default 'hybrid' */
  readonly mode?: SearchMode;
  /** Said to the model before the rules on sources. @default - none */
  readonly instructions?: string;
  /** @default 1024 */
  readonly maxOutputTokens?: number;
  readonly abortSignal?: AbortSignal;
}

/** A source the answer cites: `[n]` in the text is `sources[n - 1]`. */
export interface Citation {
  readonly marker: number;
  readonly chunkId: string;
  readonly documentId: string;
  readonly source: string;
  readonly version: string;
  readonly text: string;
}

export interface Answer {
  readonly text: string;
  /** False when retrieval found nothing or the model answered `NOT_FOUND_ANSWER`. */
  readonly found: boolean;
  /** The sources the text cites (by `[n]`), in order of first citation. */
  readonly citations: readonly Citation[];
  /** Everything retrieval gave the model, numbered from 1. */
  readonly sources: readonly SearchHit[];
  /** The model call's tokens; absent when the model was not called. */
  readonly usage?: LanguageModelUsage;
}

const RULES = [
  'Answer the question using only the numbered sources below.',
  'After each statement, cite the sources it comes from by number in square brackets, like [1] or [1][3].',
  `If the sources do not answer the question, reply exactly: ${NOT_FOUND_ANSWER}`,
].join('\n');

/** The prompt of `answer`: the numbered sources, then the question. Exported so mock models can be scripted on it. */
export function answerPrompt(question: string, sources: readonly SearchHit[]): string {
  const blocks = sources.map((s, i) => `[${i + 1}] source: ${s.source} (chunk ${s.chunkId})\n${s.text}`);
  return `Sources:\n\n${blocks.join('\n\n')}\n\nQuestion: ${question}`;
}

/**
 * Retrieval-augmented answer: the `k` best chunks of the collection (hybrid search, the filter, the caller's tenant
 * through row-level security), the model asked to answer from them only and to cite them as `[n]`, and the citations
 * read back from its text (chunk ids and source documents). No chunk found: `NOT_FOUND_ANSWER`, and the model is not
 * called (nothing to ground an answer on, and nothing spent).
 */
export async function answer(question: string, options: AnswerOptions): Promise<Answer> {
  if (typeof question !== 'string' || question.trim().length === 0) throw new AiUsageError('answer: the question must be a non-empty string');
  const sources = await options.store.search(question, {
    collection: options.collection,
    k: options.k ?? 5,
    ...(options.filter ? { filter: options.filter } : {}),
    ...(options.mode ? { mode: options.mode } : {}),
  });
  if (sources.length === 0) return { text: NOT_FOUND_ANSWER, found: false, citations: [], sources };
  const { generateText } = await loadAiSdk();
  const result = await generateText({
    model: options.model,
    system: options.instructions ? `${options.instructions}\n\n${RULES}` : RULES,
    prompt: answerPrompt(question, sources),
    maxOutputTokens: options.maxOutputTokens ?? 1024,
    ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
  });
  const text = result.text.trim();
  if (text === NOT_FOUND_ANSWER) return { text, found: false, citations: [], sources, usage: result.usage };
  return { text, found: true, citations: citationsIn(text, sources), sources, usage: result.usage };
}

/** The sources `[n]` markers name, once each, in order of first mention; numbers outside the list are ignored. */
export function citationsIn(text: string, sources: readonly SearchHit[]): Citation[] {
  const seen = new Set<number>();
  const out: Citation[] = [];
  for (const match of text.matchAll(/\[(\d+(?:\s*,\s*\d+)*)\]/g)) {
    for (const n of match[1]!.split(',').map((s) => Number(s.trim()))) {
      const hit = sources[n - 1];
      if (!hit || seen.has(n)) continue;
      seen.add(n);
      out.push({ marker: n, chunkId: hit.chunkId, documentId: hit.documentId, source: hit.source, version: hit.version, text: hit.text });
    }
  }
  return out;
}
