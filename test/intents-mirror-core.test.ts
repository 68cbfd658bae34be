import * as path from 'node:path';
import { expect } from 'chai';
import * as ts from 'typescript';

/*
 * jsii cannot import @framework/core's types, so `src/intents/` copies them as structs. This test reads both sides
 * with the TypeScript compiler (core's exported `AppOptions`, this package's exported `FrameworkAppOptions`) and
 * fails when a field of a core intent, app client or stage has no struct field, or a struct field has no core field.
 * It starts from the two option types only, so it holds wherever core keeps each kind's type.
 */

const repoRoot = path.resolve(__dirname, '..');

/**
 * Fields that differ on purpose, by path (`[]` is an array element or a record value). Anything else that differs
 * fails the test: add the field to the struct (or to core), or add it here with the reason.
 */
const CORE_ONLY: Readonly<Record<string, string>> = {
  // The struct carries the cron/rate union as two optional fields; the renderer writes `schedule: { cron }` or `{ rate }`.
  'infrastructure.schedules[].schedule': 'given as cron or rate',
  // PostgreSQL is the only engine and the default: a struct field comes with a second engine.
  'infrastructure.databases[].engine': 'one engine only',
};
const STRUCT_ONLY: Readonly<Record<string, string>> = {
  'infrastructure.schedules[].cron': 'core schedule.cron',
  'infrastructure.schedules[].rate': 'core schedule.rate',
  // Core keys app clients and stages by name (a record); jsii structs carry them as lists with the name inside.
  'security.appClients[].name': 'the record key',
  'security.roles[].name': 'the record key',
  'envs[].name': 'the record key',
  'billing[].plans[].id': 'the record key',
};

/** Where core's options and the projen options carry the same thing under different names. */
const PAIRS: ReadonlyArray<{ readonly core: string; readonly struct: string }> = [
  { core: 'security.appClients', struct: 'appClients' },
  { core: 'security.roles', struct: 'roles' },
  { core: 'envs', struct: 'stages' },
  { core: 'billing', struct: 'billing' },
];

interface Side {
  readonly checker: ts.TypeChecker;
  readonly type: ts.Type;
}

function exportedType(program: ts.Program, file: string, name: string): ts.Type {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`${file} is not in the program`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error(`${file} has no exports`);
  let symbol = checker.getExportsOfModule(moduleSymbol).find((s) => s.name === name);
  if (!symbol) throw new Error(`${file} does not export ${name}`);
  if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  return checker.getDeclaredTypeOfSymbol(symbol);
}

function propertyType(checker: ts.TypeChecker, type: ts.Type, name: string): ts.Type | undefined {
  const property = checker.getPropertyOfType(type, name);
  return property && checker.getNonNullableType(checker.getTypeOfSymbol(property));
}

/** An array's element or a record's value type; the type itself otherwise. */
function itemType(checker: ts.TypeChecker, type: ts.Type): ts.Type {
  const nonNull = checker.getNonNullableType(type);
  if (checker.isArrayType(nonNull) || checker.isTupleType(nonNull)) return checker.getTypeArguments(nonNull as ts.TypeReference)[0]!;
  const index = checker.getIndexInfoOfType(nonNull, ts.IndexKind.String);
  return index ? index.type : nonNull;
}

/** A struct-like object: named fields, no index signature, not callable (records of strings, enums and unions are leaves). */
function isStruct(checker: ts.TypeChecker, type: ts.Type): boolean {
  return (
    (type.flags & ts.TypeFlags.Object) !== 0 &&
    type.getCallSignatures().length === 0 &&
    !checker.getIndexInfoOfType(type, ts.IndexKind.String) &&
    checker.getPropertiesOfType(type).length > 0
  );
}

function isCollection(checker: ts.TypeChecker, type: ts.Type): boolean {
  const nonNull = checker.getNonNullableType(type);
  return checker.isArrayType(nonNull) || checker.isTupleType(nonNull) || checker.getIndexInfoOfType(nonNull, ts.IndexKind.String) !== undefined;
}

/** Every field path present on one side only, field by field down through nested structs, arrays and records. */
function compare(core: Side, struct: Side, at: string, problems: string[]): void {
  const coreFields = new Set(core.checker.getPropertiesOfType(core.type).map((p) => p.name));
  const structFields = new Set(struct.checker.getPropertiesOfType(struct.type).map((p) => p.name));
  for (const name of coreFields) {
    const fieldPath = `${at}.${name}`;
    if (!structFields.has(name)) {
      if (!(fieldPath in CORE_ONLY)) problems.push(`core field ${fieldPath} has no struct field`);
      continue;
    }
    const coreField = propertyType(core.checker, core.type, name)!;
    const structField = propertyType(struct.checker, struct.type, name)!;
    const collection = isCollection(core.checker, coreField);
    const coreItem = itemType(core.checker, coreField);
    const structItem = itemType(struct.checker, structField);
    if (isStruct(core.checker, coreItem) && isStruct(struct.checker, structItem)) {
      compare({ checker: core.checker, type: coreItem }, { checker: struct.checker, type: structItem }, `${fieldPath}${collection ? '[]' : ''}`, problems);
    }
  }
  for (const name of structFields) {
    const fieldPath = `${at}.${name}`;
    if (!coreFields.has(name) && !(fieldPath in STRUCT_ONLY)) problems.push(`struct field ${fieldPath} has no core field`);
  }
}

describe('projen intent structs mirror core', function () {
  // The compiler reads both packages' sources once.
  this.timeout(60_000);

  let checker: ts.TypeChecker;
  let appOptions: ts.Type;
  let frameworkAppOptions: ts.Type;

  before(() => {
    const coreIndex = path.join(repoRoot, 'packages', 'core', 'src', 'index.ts');
    const projenIndex = path.join(repoRoot, 'src', 'index.ts');
    const program = ts.createProgram([coreIndex, projenIndex], {
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
    });
    checker = program.getTypeChecker();
    appOptions = exportedType(program, coreIndex, 'AppOptions');
    frameworkAppOptions = exportedType(program, projenIndex, 'FrameworkAppOptions');
  });

  /** Core's type at a dotted path below `AppOptions` (array elements and record values unwrapped). */
  function coreAt(dotted: string): ts.Type {
    return dotted.split('.').reduce((type, name) => {
      const field = propertyType(checker, type, name);
      if (!field) throw new Error(`core AppOptions has no ${dotted}`);
      return itemType(checker, field);
    }, appOptions);
  }

  it('every intent kind of core is an option of FrameworkApp, field by field both ways', () => {
    // Given core's infrastructure kinds
    const infrastructure = coreAt('infrastructure');
    const problems: string[] = [];
    // When each kind is compared with the FrameworkApp option of the same name
    for (const kind of checker.getPropertiesOfType(infrastructure).map((p) => p.name)) {
      const structField = propertyType(checker, frameworkAppOptions, kind);
      if (!structField) {
        problems.push(`core kind infrastructure.${kind} has no FrameworkAppOptions.${kind}`);
        continue;
      }
      const coreField = propertyType(checker, infrastructure, kind)!;
      const at = `infrastructure.${kind}${isCollection(checker, coreField) ? '[]' : ''}`;
      compare({ checker, type: itemType(checker, coreField) }, { checker, type: itemType(checker, structField) }, at, problems);
    }
    // Then no field is on one side only (other than the listed ones)
    expect(problems).to.deep.equal([]);
  });

  it('app clients, roles and stages match core field by field both ways', () => {
    const problems: string[] = [];
    for (const pair of PAIRS) {
      const structField = propertyType(checker, frameworkAppOptions, pair.struct);
      expect(structField, `FrameworkAppOptions.${pair.struct}`).to.not.equal(undefined);
      compare({ checker, type: coreAt(pair.core) }, { checker, type: itemType(checker, structField!) }, `${pair.core}[]`, problems);
    }
    expect(problems).to.deep.equal([]);
  });

  it('lists no exception that no longer differs (a stale entry would hide a real gap)', () => {
    // Given every exception path, when it is looked up on its side
    const stale = [
      ...Object.keys(CORE_ONLY).filter((p) => !hasPath(p, 'core') || hasPath(p, 'struct')),
      ...Object.keys(STRUCT_ONLY).filter((p) => !hasPath(p, 'struct') || hasPath(p, 'core')),
    ];
    // Then each is present on its own side and absent on the other
    expect(stale).to.deep.equal([]);
  });

  function hasPath(fieldPath: string, side: 'core' | 'struct'): boolean {
    const [head, ...rest] = fieldPath.replace(/\[\]/g, '').split('.');
    const pair = PAIRS.find((p) => fieldPath.replace(/\[\]/g, '').startsWith(`${p.core}.`));
    let type: ts.Type | undefined;
    let names: string[];
    if (side === 'core') {
      type = appOptions;
      names = [head!, ...rest];
    } else if (pair) {
      type = frameworkAppOptions;
      names = [pair.struct, ...fieldPath.replace(/\[\]/g, '').slice(pair.core.length + 1).split('.')];
    } else {
      // infrastructure.<kind>.<field>: the kind is a FrameworkAppOptions field of the same name
      type = frameworkAppOptions;
      names = head === 'infrastructure' ? rest : [head!, ...rest];
    }
    for (const name of names) {
      const field = type && propertyType(checker, type, name);
      if (!field) return false;
      type = itemType(checker, field);
    }
    return true;
  }
});
