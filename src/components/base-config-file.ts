import { Project } from 'projen';
import { ManagedTsFile, renderLiteral } from '../files';

/** The project identity `config/base.ts` holds. */
export interface BaseConfigFileOptions {
  readonly name: string;
  readonly region: string;
  readonly account?: string;
}

/** `config/base.ts`: the project identity (name, region, account). */
export class BaseConfigFile extends ManagedTsFile {
  constructor(project: Project, options: BaseConfigFileOptions) {
    super(project, 'config/base.ts', () => renderBase(options));
  }
}

function renderBase(options: BaseConfigFileOptions): string {
  const base = { name: options.name, region: options.region, account: options.account };
  return [
    `import type { BaseConfig } from '@framework/core';`,
    '',
    '/** Project identity: the name prefixes every deployed unit; the region is where it is deployed. */',
    `const base: BaseConfig = ${renderLiteral(base)};`,
    '',
    'export default base;',
    '',
  ].join('\n');
}
