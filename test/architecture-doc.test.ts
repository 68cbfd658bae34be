import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'chai';
import * as ts from 'typescript';

/*
 * docs/architecture.md stays true: every file it names exists, every constant it names is defined in the code, every
 * workspace package is in its table, and every package README links to it. A move or a rename that leaves the page
 * behind fails here.
 */

const root = path.resolve(__dirname, '..');
const doc = fs.readFileSync(path.join(root, 'docs', 'architecture.md'), 'utf8');
const packageNames = fs.readdirSync(path.join(root, 'packages'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);

/** Every file of the repository's sources and tests, as paths relative to the root (`/` separators). */
function repositoryFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      if (['node_modules', 'lib', '.fw', 'cdk.out', '.git'].includes(entry.name)) continue;
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(rel);
      else out.push(rel);
    }
  };
  for (const top of ['src', 'test', ...packageNames.flatMap((p) => [`packages/${p}/src`, `packages/${p}/test`])]) {
    if (fs.existsSync(path.join(root, top))) walk(top);
  }
  return out;
}

/** The code spans of the page (text between backticks). */
const spans = [...doc.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);

/**
 * Whether a source file's code (identifiers and strings, not its comments) names the WebSocket kind: `ws`, `wsUrl`,
 * `WsDefinition`, `FW_ERR_WS_GONE`, `'./ws/index.js'`, `publicWebSocketRoute` (not `aws`, `AWS_REGION`, `news`).
 */
function namesWebSocketKind(file: string): boolean {
  const source = ts.createSourceFile(file, fs.readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest, false);
  const mention = /(^|[^A-Za-z])(ws|WS)([^a-z]|$)|Ws[A-Z]|WebSocket/;
  const visit = (node: ts.Node): boolean => {
    if ((ts.isIdentifier(node) || ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) && mention.test(node.text)) return true;
    return ts.forEachChild(node, visit) ?? false;
  };
  return visit(source);
}

describe('docs/architecture.md', () => {
  const files = repositoryFiles();

  it('names only files that exist (a full path from the root, or the end of one)', () => {
    const named = spans.filter((s) => /^[\w./-]+\.ts$/.test(s));
    expect(named.length, 'the page names files').to.be.greaterThan(10);
    const missing = named.filter((name) => !fs.existsSync(path.join(root, name)) && !files.some((f) => f.endsWith(`/${name}`)));
    expect(missing).to.deep.equal([]);
  });

  it('names only folders that exist', () => {
    const folders = spans.filter((s) => /^[\w.-]+(\/[\w.-]+)*\/$/.test(s) || /^packages\/[\w-]+\/src\/[\w/-]+$/.test(s));
    const missing = folders.filter((name) => !fs.existsSync(path.join(root, name)) && !files.some((f) => f.includes(`/${name.replace(/\/$/, '')}/`)));
    expect(missing).to.deep.equal([]);
  });

  it('names only constants the code defines', () => {
    const constants = [...new Set(spans.filter((s) => /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/.test(s) && !s.startsWith('FW_')))];
    expect(constants.length, 'the page names constants').to.be.greaterThan(2);
    const sources = files.filter((f) => f.endsWith('.ts') && /(^src\/|\/src\/)/.test(f)).map((f) => fs.readFileSync(path.join(root, f), 'utf8'));
    const undefinedOnes = constants.filter((name) => !sources.some((text) => new RegExp(`\\b(const|let|class|function|type|interface)\\s+${name}\\b`).test(text)));
    expect(undefinedOnes).to.deep.equal([]);
  });

  it('counts the files of "Adding a kind" as its table lists them', () => {
    // The table's rows each name the files a new config-only kind edits, in their first column.
    const section = /### Adding a kind: the files\n([\s\S]*?)\n(?=#{2,3} )/.exec(doc)?.[1] ?? '';
    const rows = section.split('\n').filter((line) => /^\| \d+ \|/.test(line));
    expect(rows.length, 'the section has its table').to.be.greaterThan(5);
    const tableFiles = rows.flatMap((row) => [...row.split('|')[2]!.matchAll(/`([^`]+\.ts)`/g)].map((m) => m[1]!));
    const projenFiles = tableFiles.filter((file) => file.startsWith('src/'));
    const stated = /That is (\d+) source files, (\d+) of them outside the projen side/.exec(section);
    expect(stated, 'the section states the count').to.not.equal(null);
    expect(Number(stated![1]), 'files in the table').to.equal(tableFiles.length);
    expect(Number(stated![2]), 'files outside src/ (the projen side)').to.equal(tableFiles.length - projenFiles.length);
    // The bound the layout keeps (a new config-only kind in at most 8 source files plus docs).
    expect(tableFiles.length, 'source files a config-only kind touches').to.be.at.most(8);
    // Every file of the table without a placeholder exists as named (the placeholders are `<kind>`).
    const missing = tableFiles.filter((file) => !file.includes('<') && !fs.existsSync(path.join(root, file)));
    expect(missing).to.deep.equal([]);
  });

  it('lists the files a handler kind touches (the WebSocket API), each edited one still naming it, the folded ones not', () => {
    const section = /### Adding a handler kind: the files\n([\s\S]*?)\n(?=#{2,3} )/.exec(doc)?.[1] ?? '';
    const rows = section.split('\n').filter((line) => /^\| \d+ \|/.test(line)).map((line) => line.split('|').map((cell) => cell.trim()));
    expect(rows.length, 'the section has its table').to.be.greaterThan(10);
    const listed = rows.map((cells) => ({ file: /^`([^`]+\.ts)`$/.exec(cells[2]!)?.[1] ?? cells[2]!, how: cells[3]! }));
    expect(listed.filter((row) => !/\.ts$/.test(row.file)), 'one file per row').to.deep.equal([]);
    expect(listed.filter((row) => row.how !== 'new' && row.how !== 'edited'), 'each row new or edited').to.deep.equal([]);
    expect(listed.map((row) => row.file).filter((file) => !fs.existsSync(path.join(root, file))), 'every file exists').to.deep.equal([]);
    const newFiles = listed.filter((row) => row.how === 'new').map((row) => row.file);
    const edited = listed.filter((row) => row.how === 'edited').map((row) => row.file);
    // The files a kind is meant to touch besides its own folders (the list).
    const intended = ['packages/core/src/intents/registry.ts', 'packages/infra/src/stack/framework-stack.ts', 'packages/cli/src/dev/engines/index.ts', 'src/intents/intents.ts', 'src/components/intent-kinds.ts'];
    const stated = /That is (\d+) source files: (\d+) new and (\d+) edited, (\d+) of the edited ones outside/.exec(section);
    expect(stated, 'the section states the count').to.not.equal(null);
    expect(stated!.slice(1).map(Number)).to.deep.equal([listed.length, newFiles.length, edited.length, edited.filter((file) => !intended.includes(file)).length]);
    // Each edited file still holds the kind's seam (else the seam was folded and the table is behind the code).
    expect(edited.filter((file) => !namesWebSocketKind(file)), 'edited files that no longer name the WebSocket kind').to.deep.equal([]);
    // The seams folded into the kind module or read through the registry stay folded.
    const folded = [
      'packages/core/src/intents/function-unit.ts',
      'packages/core/src/intents/intent-kind.ts',
      'packages/core/src/handlers/handler-info.ts',
      'packages/core/src/handlers/handler-kind.ts',
      'packages/core/src/app/build-stage.ts',
      'packages/core/src/app/define-app.ts',
      'packages/core/src/environment/dev-worker-services.ts',
      'packages/cli/src/dev/server/dev-endpoint-guard.ts',
      'packages/cli/src/dev/dev-server.ts',
      'packages/cli/src/dev/clock/dev-clock.ts',
    ];
    expect(folded.filter(namesWebSocketKind), 'folded seams that name the WebSocket kind again').to.deep.equal([]);
    expect(folded.filter((file) => listed.some((row) => row.file === file))).to.deep.equal([]);
  });

  it('lists every workspace package, and every package README links to it', () => {
    for (const name of packageNames) {
      expect(doc, `packages/${name} in the table`).to.include(`packages/${name}`);
      const readme = fs.readFileSync(path.join(root, 'packages', name, 'README.md'), 'utf8');
      expect(readme, `packages/${name}/README.md links to the page`).to.include('(../../docs/architecture.md)');
    }
  });
});
