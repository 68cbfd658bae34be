import * as fs from 'node:fs';
import * as path from 'node:path';

/** One stack of a written cloud assembly. */
export interface StackSummary {
  readonly name: string;
  readonly templateFile: string;
  readonly resources: number;
}

/** Reads every template of a cloud assembly folder (stacks and nested stacks) and counts its resources. */
export function summarizeAssembly(directory: string): StackSummary[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(directory, 'manifest.json'), 'utf8')) as { artifacts?: Record<string, { type: string; properties?: { templateFile?: string; stackName?: string } }> };
  const out: StackSummary[] = [];
  const count = (file: string) => Object.keys((JSON.parse(fs.readFileSync(path.join(directory, file), 'utf8')) as { Resources?: object }).Resources ?? {}).length;
  for (const [id, artifact] of Object.entries(manifest.artifacts ?? {})) {
    if (artifact.type !== 'aws:cloudformation:stack' || !artifact.properties?.templateFile) continue;
    out.push({ name: artifact.properties.stackName ?? id, templateFile: artifact.properties.templateFile, resources: count(artifact.properties.templateFile) });
  }
  for (const file of fs.readdirSync(directory).filter((f) => f.endsWith('.nested.template.json')).sort()) {
    out.push({ name: file.replace(/\.nested\.template\.json$/, ' (nested)'), templateFile: file, resources: count(file) });
  }
  return out;
}
