import { FileBase, IResolver, Project } from 'projen';

/**
 * A TypeScript file projen owns: rendered at synth time (so intents added after construction still land), marked
 * as generated, and read-only on disk. Users change it through `.projenrc.ts`.
 */
export class ManagedTsFile extends FileBase {
  constructor(project: Project, filePath: string, private readonly render: () => string) {
    super(project, filePath, { readonly: true, marker: true });
  }

  protected synthesizeContent(_resolver: IResolver): string | undefined {
    return `// ${this.marker}\n${this.render()}`;
  }
}
