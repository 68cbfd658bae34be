import { BadRequest, handler, response } from '@framework/runtime';
import { checkJob, type Job } from '../../lib/jobs.js';

/** `POST /jobs`: authenticated (`tasks:write`); queues the job and answers 202 with the message id. */
export const main = handler(
  async (body: unknown, _ctx, service) => {
    const problem = checkJob(body);
    if (problem) throw new BadRequest(problem);
    const { messageId } = await service.queues.jobs!.send(body as Job);
    return response({ statusCode: 202, body: { messageId } });
  },
  { scopes: ['tasks:write'] },
);
