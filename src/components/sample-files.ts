import { Component, Project, SampleFile } from 'projen';

/** What a sample file is written from: its text, or a file of this package (a template's). */
export interface SampleFileSource {
  readonly contents?: string;
  readonly sourcePath?: string;
}

/**
 * The files written once, then owned by the user (the template's routes and tests, a consumer per queue, ...): the
 * first declaration of a path wins, and projen never rewrites one that exists.
 */
export class SampleFiles extends Component {
  private readonly paths = new Set<string>();

  constructor(project: Project) {
    super(project);
  }

  public add(file: string, source: SampleFileSource): void {
    if (this.paths.has(file)) return;
    this.paths.add(file);
    new SampleFile(this.project, file, source);
  }
}
