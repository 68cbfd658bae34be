import { Component, Project } from 'projen';

/** The app's tasks: `fw`'s commands (arguments passed through), the type check CI runs, and mocha as `test`. */
export class FrameworkTasks extends Component {
  constructor(project: Project) {
    super(project);
    const fwTask = (name: string, description: string, command: string) => project.addTask(name, { description, exec: `fw ${command}`, receiveArgs: true });
    fwTask('dev', 'Run every route, queue, cron and function locally (fw dev)', 'dev');
    fwTask('deploy', 'Deploy a stage: npx projen deploy --stage prod (dev by default)', 'deploy');
    fwTask('synth', 'Write the cloud assembly of a stage (fw synth)', 'synth');
    fwTask('diff', 'Show what a deploy would change (fw diff)', 'diff');
    fwTask('g', 'Generate a route file: npx projen g route "tasks/[id]" -m put --scopes tasks:write', 'g');
    fwTask('migrate', 'Apply database migrations (fw migrate)', 'migrate');
    // fw dev serves code esbuild compiled without checking types (and prints type errors beside); CI runs this one.
    // `fw types` first: the app's generated ids and scopes (.fw/types, not committed) exist on a fresh clone too.
    project.addTask('typecheck', { description: 'Type-check the project (fw types, then tsc --noEmit: what fw dev runs in the background)', exec: 'fw types && tsc --noEmit' });
    project.testTask.reset('mocha', { receiveArgs: true });
  }
}
