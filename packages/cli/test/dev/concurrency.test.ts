import * as fs from 'node:fs';
import { expect } from 'chai';
import { copyExample, eventually, startDev, type RunningDev } from './helpers.js';

const FIXTURES: Record<string, string> = {
  'src/functions/echo-a.ts': `export const main = async (event: unknown) => ({ fn: 'a', event });\n`,
  'src/functions/echo-b.ts': `export const main = async (event: unknown) => ({ fn: 'b', event });\n`,
  'src/functions/explode.ts': `export const main = async () => { throw new RangeError('boom in the background'); };\n`,
};

/** The status of a request, or HUNG when it did not answer in `ms` (so a hang fails an assertion, not the run). */
async function statusWithin(request: Promise<Response>, ms: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('HUNG'), ms)));
  const answered = request.then(async (response) => `${response.status}${response.headers.get('x-amz-function-error') ? ' function-error' : ''}`);
  try {
    return await Promise.race([answered, hung]);
  } finally {
    clearTimeout(timer);
  }
}

describe('fw dev under concurrent first requests (example app, embedded engines)', function () {
  this.timeout(90_000);
  let dir: string;
  let dev: RunningDev | undefined;

  before(() => {
    dir = copyExample(FIXTURES);
  });
  after(async () => {
    await dev?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers requests to several never-loaded routes, functions and a queue, sent while start-up still loads the routes', async () => {
    // Given fw dev that has just started listening (the start-up table, printed once every route loaded, is not out yet)
    dev = await startDev(dir, ['--engine', 'databases=embedded']);
    const url = dev.url;
    const invoke = (name: string, body: unknown) => fetch(`${url}/_dev/invoke/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    // When requests to different units, none loaded yet, all arrive at once
    const requests: Record<string, Promise<Response>> = {
      'GET /health': fetch(`${url}/health`),
      'GET /tasks': fetch(`${url}/tasks`),
      'PUT /tasks/{id}': fetch(`${url}/tasks/t-1`, { method: 'PUT', body: '{}' }),
      'GET /tasks/{id}/attachments': fetch(`${url}/tasks/t-1/attachments`),
      'echo-a': invoke('echo-a', { n: 1 }),
      'echo-b': invoke('echo-b', { n: 2 }),
      'queue task-events': invoke('queue/task-events', { type: 'not-a-task-event' }),
      'async explode': fetch(`${url}/_dev/invoke/explode`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-amz-invocation-type': 'Event' }, body: '{}' }),
    };
    const names = Object.keys(requests);
    const statuses = await Promise.all(names.map((name) => statusWithin(requests[name]!, 45_000)));
    // Then every one answers as it would alone
    expect(Object.fromEntries(names.map((name, i) => [name, statuses[i]]))).to.deep.equal({
      'GET /health': '200',
      'GET /tasks': '401',
      'PUT /tasks/{id}': '401',
      'GET /tasks/{id}/attachments': '401',
      'echo-a': '200',
      'echo-b': '200',
      // The consumer reports the malformed message as a batch item failure (a result, not a function error).
      'queue task-events': '200',
      'async explode': '202',
    });
    // And the synchronous invocations that follow answer too, with their own handler's result
    const a = await statusWithin(invoke('echo-a', { n: 3 }), 20_000);
    expect(a).to.equal('200');
    const b = await invoke('echo-b', { n: 4 });
    expect(await b.json()).to.deep.equal({ fn: 'b', event: { n: 4 } });
    // And the failure of the asynchronous invocation, which nobody waits for, is on the console
    await eventually(async () => (/asynchronous invocation of explode .*failed: RangeError: boom in the background/.test(dev!.output()) ? true : undefined), 20_000, 'the async failure log line');
    // And start-up still ends with its table
    await eventually(async () => (dev!.output().includes('Dev endpoints:') ? true : undefined), 45_000, 'the start-up table');
  });
});
