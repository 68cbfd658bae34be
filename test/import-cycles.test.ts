import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import * as ts from 'typescript';

/*
 * No module of a workspace package imports itself back, directly or through others: a cycle makes load order matter
 * (a value read before its module ran is `undefined`) and ties two files so neither can move alone. Every static
 * `import` and `export ... from` counts, type-only ones too; a dynamic `import()` is a lazy load (the command table
 * loads each command on use) and does not.
 */

const packagesDir = path.resolve(__dirname, '..', 'packages');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The files of the same package a file imports statically (`./x.js` is `./x.ts` or `./x/index.ts`). */
function staticImports(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    if ((ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
      specifiers.push(statement.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(statement) && ts.isExternalModuleReference(statement.moduleReference) && ts.isStringLiteral(statement.moduleReference.expression)) {
      specifiers.push(statement.moduleReference.expression.text);
    }
  }
  return specifiers.flatMap((specifier) => {
    if (!specifier.startsWith('.')) return [];
    const base = path.resolve(path.dirname(file), specifier.replace(/\.(js|ts)$/, ''));
    const target = [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => fs.existsSync(candidate));
    return target ? [target] : [];
  });
}

/** Each cycle once, as the path of files from its first file back to it. */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}

describe('import cycles', () => {
  const packages = fs.readdirSync(packagesDir).filter((name) => fs.existsSync(path.join(packagesDir, name, 'src')));

  it('finds the packages (a moved folder must not make this test pass on nothing)', () => {
    expect(packages).to.include.members(['core', 'runtime', 'infra', 'cli', 'data', 'storage']);
  });

  for (const name of packages) {
    it(`none in packages/${name}/src`, () => {
      // Given the static import graph of the package's sources
      const src = path.join(packagesDir, name, 'src');
      const graph = new Map(sourceFiles(src).map((file) => [file, staticImports(file)] as const));
      // When its cycles are listed
      const cycles = findCycles(graph).map((cycle) => cycle.map((file) => path.relative(src, file)).join(' -> '));
      // Then there are none
      expect(cycles).to.deep.equal([]);
    });
  }

  it('sees a cycle through type-only imports and re-exports, and not through a dynamic import()', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-cycles-'));
    try {
      fs.writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b.js';\nexport type A = B;\n");
      fs.writeFileSync(path.join(dir, 'b.ts'), "export * from './c/index.js';\nexport type B = string;\n");
      fs.mkdirSync(path.join(dir, 'c'));
      fs.writeFileSync(path.join(dir, 'c', 'index.ts'), "export { type A } from '../a.js';\n");
      fs.writeFileSync(path.join(dir, 'lazy.ts'), "export const load = () => import('./eager.js');\n");
      fs.writeFileSync(path.join(dir, 'eager.ts'), "import { load } from './lazy.js';\nexport const again = load;\n");
      const graph = new Map(sourceFiles(dir).map((file) => [file, staticImports(file)] as const));
      const cycles = findCycles(graph).map((cycle) => cycle.map((file) => path.relative(dir, file)).join(' -> '));
      expect(cycles).to.deep.equal([['a.ts', 'b.ts', path.join('c', 'index.ts'), 'a.ts'].join(' -> ')]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
