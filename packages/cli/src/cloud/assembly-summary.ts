import * as fs from 'node:fs';
import * as path from 'node:path';

/** One stack of a written cloud assembly. */
export interface StackSummary {
  readonly name: string;
  readonly templateFile: string;
  readonly resources: number;
}

interface Template {
  readonly Resources?: Record<string, { Type?: string; Metadata?: Record<string, unknown> }>;
}

/**
 * Reads the templates of a cloud assembly folder (each stack of the manifest and the nested stacks its template
 * references, so files left by an earlier synth of another stage are ignored) and counts their resources.
 */
export function summarizeAssembly(directory: string): StackSummary[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(directory, 'manifest.json'), 'utf8')) as { artifacts?: Record<string, { type: string; properties?: { templateFile?: string; stackName?: string } }> };
  const out: StackSummary[] = [];
  const visit = (name: string, file: string) => {
    const template = JSON.parse(fs.readFileSync(path.join(directory, file), 'utf8')) as Template;
    const resources = Object.values(template.Resources ?? {});
    out.push({ name, templateFile: file, resources: resources.length });
    for (const resource of resources) {
      const nested = resource.Type === 'AWS::CloudFormation::Stack' ? resource.Metadata?.['aws:asset:path'] : undefined;
      if (typeof nested === 'string' && fs.existsSync(path.join(directory, nested))) visit(`${nested.replace(/\.nested\.template\.json$/, '')} (nested)`, nested);
    }
  };
  for (const [id, artifact] of Object.entries(manifest.artifacts ?? {})) {
    if (artifact.type === 'aws:cloudformation:stack' && artifact.properties?.templateFile) visit(artifact.properties.stackName ?? id, artifact.properties.templateFile);
  }
  return out;
}
