import { JsonFile, Project } from 'projen';

/** `.mocharc.json`: the app's tests are `tests/**\/*.test.ts`, run through tsx. */
export class MochaConfig extends JsonFile {
  constructor(project: Project) {
    super(project, '.mocharc.json', {
      obj: { 'spec': ['tests/**/*.test.ts'], 'node-option': ['import=tsx'], 'timeout': 20000, 'recursive': true, 'exit': true },
      newline: true,
    });
  }
}
