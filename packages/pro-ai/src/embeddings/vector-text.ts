/** pgvector's text form of a vector: `[1,2,3]`. Sent as text and cast (`::vector`), so no driver type is needed. */
export function vectorLiteral(vector: readonly number[]): string {
  return `[${vector.join(',')}]`;
}

/** The numbers of pgvector's text form, as the float32 values pgvector stores (its text is their shortest form). */
export function parseVector(text: string): number[] {
  return text.length <= 2 ? [] : text.slice(1, -1).split(',').map((x) => Math.fround(Number(x)));
}
