import * as fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PRESETS, PRESET_NAMES } from '../../src/index.js';

/** The package README's text. */
export function readReadme(): string {
  return fs.readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
}

/**
 * The rows of the first markdown table whose header starts with `firstHeader`, as trimmed cells without backticks.
 * The header and the `|---|` line are left out.
 */
export function tableRows(markdown: string, firstHeader: string): string[][] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`| ${firstHeader} |`));
  if (start < 0) throw new Error(`README has no table starting with "| ${firstHeader} |"`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.slice(1, -1).split(' | ').map((cell) => cell.trim().replace(/^`|`$/g, '')));
  }
  return rows;
}

/** How a preset value is written in the README table. */
export function presetCell(value: unknown): string {
  return typeof value === 'string' ? `\`${value}\`` : String(value);
}

/** The presets table's value columns, field by field, straight from PRESETS. */
export function presetRows(): Array<{ field: string; values: string[] }> {
  return Object.entries(PRESETS.free).flatMap(([group, values]) =>
    Object.keys(values).map((key) => ({
      field: `${group}.${key}`,
      values: PRESET_NAMES.map((preset) => presetCell((PRESETS[preset] as unknown as Record<string, Record<string, unknown>>)[group]![key])),
    })),
  );
}
