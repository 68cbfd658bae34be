import { Project } from 'projen';
import { ManagedTsFile, renderLiteral, toLiteral } from '../files';
import { Stage } from '../intents';

/** `config/<stage>.ts`: a stage's preset, overrides and seeded dev users. */
export class StageConfigFile extends ManagedTsFile {
  constructor(project: Project, stage: Stage) {
    super(project, `config/${stage.name}.ts`, () => renderStage(stage));
  }
}

/** `prod-eu` → `prodEu`: stage names may contain `-`, variable names may not. */
export function stageVariable(stage: string): string {
  return stage.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function renderStage(stage: Stage): string {
  const env = { preset: stage.preset as string, overrides: stage.overrides ? toLiteral(stage.overrides) : undefined, auth: stage.auth ? toLiteral(stage.auth) : undefined };
  return [
    `import type { EnvironmentConfig } from '@framework/core';`,
    '',
    `/** The "${stage.name}" stage: a preset plus overrides (every field of the preset stays overridable). */`,
    `const ${stageVariable(stage.name)}: EnvironmentConfig = ${renderLiteral(env)};`,
    '',
    `export default ${stageVariable(stage.name)};`,
    '',
  ].join('\n');
}
