import { expect } from 'chai';

/*
 * The one check that keeps a package's error-code catalog and its README's error table in step, both ways: every
 * code of the catalog has a row, and every row names a code of the catalog. Every package's docs test uses it
 * (imported from here: the packages' tests share it as they share the code-table shape).
 */

/** One row of a README code table: its code (without backticks or a `(409)` suffix) and its cells by column name. */
export interface CodeRow {
  readonly code: string;
  readonly cells: Readonly<Record<string, string>>;
}

/** The rows of the tables headed `| code |` in the README section `heading`, up to the next heading (its subsections are their own). */
export function readmeCodeRows(readme: string, heading: string): CodeRow[] {
  const lines = readme.split('\n');
  const start = lines.findIndex((line) => /^#+ /.test(line) && line.replace(/^#+ /, '').trim() === heading);
  if (start < 0) throw new Error(`README has no section headed "${heading}"`);
  const rows: CodeRow[] = [];
  let columns: string[] | undefined;
  const cellsOf = (line: string) => line.split(/(?<!\\)\|/).slice(1, -1).map((cell) => cell.trim());
  let inCode = false;
  for (const line of lines.slice(start + 1)) {
    // A `#` line inside a fenced code block is a shell comment, not a heading.
    if (line.startsWith('```')) inCode = !inCode;
    if (inCode) continue;
    const headingLevel = /^(#+) /.exec(line)?.[1]?.length;
    if (headingLevel !== undefined) break;
    if (!line.startsWith('|')) {
      columns = undefined;
      continue;
    }
    if (line.startsWith('| code |')) {
      columns = cellsOf(line);
      continue;
    }
    if (!columns || /^\|\s*-/.test(line)) continue;
    const cells = cellsOf(line);
    const code = cells[0]!.replace(/`/g, '').replace(/\s*\(\d{3}\)$/, '');
    rows.push({ code, cells: Object.fromEntries(columns.map((name, index) => [name, cells[index] ?? ''])) });
  }
  return rows;
}

/** The codes of `readmeCodeRows`. */
export function readmeCodes(readme: string, heading: string): string[] {
  return readmeCodeRows(readme, heading).map((row) => row.code);
}

/**
 * Fails, naming each difference, unless the README's code tables under `headings` list exactly the catalog's codes,
 * each once (and, for an HTTP catalog, with its status).
 */
export function expectCodeTable(readme: string, headings: string | readonly string[], catalog: Iterable<string> | Readonly<Record<string, unknown>>): void {
  const rows = (typeof headings === 'string' ? [headings] : headings).flatMap((heading) => readmeCodeRows(readme, heading));
  const documented = rows.map((row) => row.code);
  const entries = Symbol.iterator in Object(catalog) ? undefined : (catalog as Readonly<Record<string, unknown>>);
  const codes = new Set(entries ? Object.keys(entries) : (catalog as Iterable<string>));
  // An HTTP code catalog (`{ CODE: { status, meaning } }`) and a table with a status column must agree on it.
  const wrongStatus = rows.flatMap((row) => {
    const status = (entries?.[row.code] as { status?: unknown } | undefined)?.status;
    return status !== undefined && row.cells.status !== undefined && row.cells.status !== String(status) ? [`${row.code} has status ${row.cells.status} in the README, ${String(status)} in the catalog`] : [];
  });
  const twice = documented.filter((code, index) => documented.indexOf(code) !== index);
  const undocumented = [...codes].filter((code) => !documented.includes(code));
  const unknown = documented.filter((code) => !codes.has(code));
  const problems = [
    ...undocumented.map((code) => `${code} is in the catalog but has no README row`),
    ...unknown.map((code) => `${code} has a README row but is not in the catalog`),
    ...twice.map((code) => `${code} has two README rows`),
    ...wrongStatus,
  ];
  if (problems.length > 0) expect.fail(`README error tables and the code catalog differ:\n  ${problems.join('\n  ')}`);
}
