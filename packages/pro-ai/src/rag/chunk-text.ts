import { AiUsageError } from '../errors.js';

export interface ChunkOptions {
  /**
   * Largest chunk, in tokens (the o200k tokenizer of gpt-tokenizer: close to what current models count).
   * @default 200
   */
  readonly maxTokens?: number;
  /**
   * Tokens of the end of a chunk repeated at the start of the next (whole sentences, up to this many), so a fact
   * that straddles a boundary is found in one piece.
   * @default 40
   */
  readonly overlapTokens?: number;
}

export interface TextChunk {
  readonly ordinal: number;
  readonly text: string;
  readonly tokens: number;
}

interface Unit {
  readonly text: string;
  readonly tokens: number;
  /** Starts a paragraph: joined with a blank line, not a space. */
  readonly paragraph: boolean;
}

/**
 * Cuts text into chunks of at most `maxTokens` tokens along paragraph and sentence boundaries (a sentence longer than
 * that is cut by tokens), each chunk starting with the last sentences of the previous one (up to `overlapTokens`).
 * The tokenizer is loaded on first use.
 */
export async function chunkText(text: string, options: ChunkOptions = {}): Promise<TextChunk[]> {
  const maxTokens = options.maxTokens ?? 200;
  const overlapTokens = options.overlapTokens ?? 40;
  if (!Number.isInteger(maxTokens) || maxTokens < 16) throw new AiUsageError(`chunkText: maxTokens must be a whole number of at least 16, got ${String(maxTokens)}`);
  if (!Number.isInteger(overlapTokens) || overlapTokens < 0 || overlapTokens >= maxTokens) throw new AiUsageError(`chunkText: overlapTokens must be a whole number from 0 to maxTokens - 1, got ${String(overlapTokens)}`);
  const { encode, decode } = await import('gpt-tokenizer');
  const units: Unit[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    let first = true;
    for (const sentence of paragraph.replace(/\s+/g, ' ').trim().split(/(?<=[.!?])\s+/)) {
      if (!sentence) continue;
      const tokens = encode(sentence);
      for (let i = 0; i < tokens.length; i += maxTokens) {
        const piece = tokens.length <= maxTokens ? sentence : decode(tokens.slice(i, i + maxTokens));
        units.push({ text: piece, tokens: Math.min(maxTokens, tokens.length - i), paragraph: first });
        first = false;
      }
    }
  }
  const chunks: TextChunk[] = [];
  let current: Unit[] = [];
  let size = 0;
  const emit = () => {
    const body = current.map((u, i) => (i === 0 ? '' : u.paragraph ? '\n\n' : ' ') + u.text).join('');
    chunks.push({ ordinal: chunks.length, text: body, tokens: size });
  };
  let fresh = 0; // units in `current` not carried over from the previous chunk
  for (const unit of units) {
    if (size + unit.tokens > maxTokens && fresh > 0) {
      emit();
      const carried: Unit[] = [];
      let carriedSize = 0;
      for (let i = current.length - 1; i >= 0; i--) {
        const u = current[i]!;
        if (carriedSize + u.tokens > overlapTokens || carriedSize + u.tokens + unit.tokens > maxTokens) break;
        carried.unshift(u);
        carriedSize += u.tokens;
      }
      current = carried;
      size = carriedSize;
      fresh = 0;
    }
    current.push(unit);
    size += unit.tokens;
    fresh++;
  }
  if (fresh > 0) emit();
  return chunks;
}
