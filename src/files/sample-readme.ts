/** The `README.md` of a new app: how to run it, and where routes and intents are declared. */
export function sampleReadme(name: string, templateDescription: string): string {
  return [
    `# ${name}`,
    '',
    `A framework app (${templateDescription}).`,
    '',
    '```sh',
    'npx projen dev                   # every route, queue and cron on http://localhost:3000',
    'npm test                         # the tests in tests/',
    'npx projen synth                 # the cloud assembly of the dev stage',
    'npx projen deploy --stage prod   # deploy a stage',
    '```',
    '',
    'Routes live in `src/routes/` (one file per route: `src/routes/tasks/get.ts` is `GET /tasks`). Intents (queues,',
    'schedules, databases, buckets, ...), stages and scopes are declared in `.projenrc.ts`; run `npx projen` after',
    'changing it to regenerate `fw.config.ts` and `config/`.',
    '',
  ].join('\n');
}
