import { processRecords, taskHandler } from '@framework/runtime';
import type { SQSEvent } from 'aws-lambda';
import { checkJob, runJob, type Job } from '../lib/jobs.js';

/**
 * Consumer of the `jobs` queue. A job that fails is reported as a batch item failure, so only it is redelivered;
 * after `maxReceiveCount` failures it moves to the dead-letter queue.
 */
export const main = taskHandler<SQSEvent>(
  async (event, ctx) =>
    processRecords<Job>(event, async (job) => {
      const problem = checkJob(job);
      if (problem) throw new Error(`invalid job: ${problem}`);
      const result = await runJob(job);
      ctx.logger.info('job done', result);
    }),
  { retries: 1 },
);
