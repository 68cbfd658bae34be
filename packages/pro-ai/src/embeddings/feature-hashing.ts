/*
 * Feature hashing ("the hashing trick"): every feature of a text (a word, a pair of neighbouring words, a character
 * n-gram of a word) is hashed to one of `dimensions` slots and adds +weight or -weight there (a second hash picks the
 * sign, so collisions cancel out on average instead of piling up). No vocabulary, no model file, no download: the
 * same text gives the same vector on every machine.
 */

/** Words that carry little meaning; dropped so they do not dominate short texts. */
const STOP_WORDS = new Set(
  'a an and are as at be but by for from has have i if in into is it its of on or so than that the their them then there these they this to was were what when where which who why will with you your do does did how can not no our we us'.split(' '),
);

const WEIGHTS = { word: 1, bigram: 0.5, charGram: 0.25 } as const;
const CHAR_GRAM_SIZES = [3, 4] as const;

/** Lower-cased words (letters and digits of any script), stop words removed, a light suffix stemming. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (STOP_WORDS.has(raw)) continue;
    out.push(stem(raw));
  }
  return out;
}

/** Strips common English inflections, so "tasks"/"task" and "assigned"/"assign" share their main feature. */
function stem(word: string): string {
  if (word.length <= 4) return word;
  for (const suffix of ['ing', 'ed', 'es', 's']) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) return word.slice(0, -suffix.length);
  }
  return word;
}

/** 32-bit FNV-1a of a string (UTF-16 code units), seeded: fast, well spread, the same everywhere. */
function fnv1a(text: string, seed: number): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

function add(vector: Float64Array, feature: string, weight: number): void {
  const slot = fnv1a(feature, 0) % vector.length;
  const sign = fnv1a(feature, 0x9e3779b9) & 1 ? 1 : -1;
  vector[slot]! += sign * weight;
}

/** The L2-normalised hashed feature vector of `text` (all zeros for a text without words). */
export function hashedFeatures(text: string, dimensions: number): number[] {
  const vector = new Float64Array(dimensions);
  const tokens = words(text);
  for (let i = 0; i < tokens.length; i++) {
    const word = tokens[i]!;
    add(vector, `w:${word}`, WEIGHTS.word);
    if (i + 1 < tokens.length) add(vector, `b:${word} ${tokens[i + 1]!}`, WEIGHTS.bigram);
    const padded = `<${word}>`;
    for (const n of CHAR_GRAM_SIZES) {
      for (let j = 0; j + n <= padded.length; j++) add(vector, `c:${padded.slice(j, j + n)}`, WEIGHTS.charGram);
    }
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  // Rounded to float32 precision: what pgvector stores, so a vector read back equals the one computed.
  return Array.from(vector, (value) => (norm === 0 ? 0 : Math.fround(value / norm)));
}
