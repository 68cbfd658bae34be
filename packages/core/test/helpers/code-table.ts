import { expect } from 'chai';

/*
 * The one check that keeps a package's error-code catalog and its README's error table in step, both ways: every
 * code of the catalog has a row, and every row names a code of the catalog. Every package's docs test uses it
 * (imported from here: the packages' tests share it as they share the code-table shape).
 */

/** The first cells (code, without backticks) of the tables headed `| code |` in the README section `heading`. */
export function readmeCodes(readme: string, heading: string): string[] {
  const lines = readme.split('\n');
  const start = lines.findIndex((line) => /^#+ /.test(line) && line.replace(/^#+ /, '').trim() === heading);
  if (start < 0) throw new Error(`README has no section headed "${heading}"`);
  const level = /^#+/.exec(lines[start]!)![0].length;
  const codes: string[] = [];
  let inTable = false;
  for (const line of lines.slice(start + 1)) {
    const headingLevel = /^(#+) /.exec(line)?.[1]?.length;
    if (headingLevel !== undefined && headingLevel <= level) break;
    if (!line.startsWith('|')) {
      inTable = false;
      continue;
    }
    if (line.startsWith('| code |')) {
      inTable = true;
      continue;
    }
    if (!inTable || /^\|\s*-/.test(line)) continue;
    codes.push(line.split('|')[1]!.trim().replace(/`/g, '').replace(/\s*\(\d{3}\)$/, ''));
  }
  return codes;
}

/**
 * Fails, naming each difference, unless the README's code tables under `headings` list exactly the catalog's codes,
 * each once.
 */
export function expectCodeTable(readme: string, headings: string | readonly string[], catalog: Iterable<string> | Readonly<Record<string, unknown>>): void {
  const documented = (typeof headings === 'string' ? [headings] : headings).flatMap((heading) => readmeCodes(readme, heading));
  const codes = new Set(Symbol.iterator in Object(catalog) ? (catalog as Iterable<string>) : Object.keys(catalog));
  const twice = documented.filter((code, index) => documented.indexOf(code) !== index);
  const undocumented = [...codes].filter((code) => !documented.includes(code));
  const unknown = documented.filter((code) => !codes.has(code));
  expect({ undocumented, unknown, twice }, 'README error tables vs the code catalog').to.deep.equal({ undocumented: [], unknown: [], twice: [] });
}
