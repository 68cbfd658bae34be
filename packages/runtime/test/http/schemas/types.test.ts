import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import ts from 'typescript';

const fixture = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'typed-routes.ts');

/** Diagnostics of the fixture compiled the way the packages are (strict, NodeNext). */
function compile(file: string): string[] {
  const program = ts.createProgram([file], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts'],
    types: ['node'],
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    noEmit: true,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file ? `${d.file.fileName.split('/').pop()}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('handler: schema types (compiled with the TypeScript API)', () => {
  it('infers fn parameters and the return type from zod and valibot schemas: every @ts-expect-error line is an error, nothing else is', function () {
    // A whole TypeScript program (zod's and valibot's declarations): seconds alone, more on a loaded machine.
    this.timeout(180_000);
    // An unused @ts-expect-error (inference fell back to any/unknown) or an unexpected error both show up here.
    expect(compile(fixture)).to.deep.equal([]);
  });
});
