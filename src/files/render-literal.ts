/** A value that can be written into generated TypeScript as a literal. */
export type Literal = string | number | boolean | null | undefined | readonly Literal[] | { readonly [key: string]: Literal };

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Renders a value as a TypeScript literal, formatted the way a person would write it (single quotes, unquoted keys
 * where allowed, two-space indent, trailing commas), so generated files read like hand-written ones and diff
 * cleanly. `undefined` fields are left out; short arrays and objects of primitives stay on one line.
 */
export function renderLiteral(value: Literal, indent = ''): string {
  if (value === null || value === undefined) return 'undefined';
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const inner = `${indent}  `;
  if (isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((v) => renderLiteral(v, inner));
    const oneLine = `[${items.join(', ')}]`;
    if (oneLine.length <= 80 && !oneLine.includes('\n')) return oneLine;
    return `[\n${items.map((i) => `${inner}${i},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return '{}';
  const parts = entries.map(([k, v]) => `${IDENTIFIER.test(k) ? k : quote(k)}: ${renderLiteral(v, inner)}`);
  const oneLine = `{ ${parts.join(', ')} }`;
  if (oneLine.length <= 80 && !oneLine.includes('\n')) return oneLine;
  return `{\n${parts.map((p) => `${inner}${p},`).join('\n')}\n${indent}}`;
}

function isArray(value: Literal): value is readonly Literal[] {
  return Array.isArray(value);
}

function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

/** A struct of the options (jsii interfaces, enums as strings) as a literal: `undefined` fields dropped. */
export function toLiteral(value: object): Literal {
  return JSON.parse(JSON.stringify(value)) as Literal;
}

/** `toLiteral` of an object, typed as an object literal (to spread or add fields to). */
export function toLiteralObject(value: object): { readonly [key: string]: Literal } {
  return JSON.parse(JSON.stringify(value)) as { readonly [key: string]: Literal };
}
