/** A unit of background work, sent to the `jobs` queue by `POST /jobs` and handled by `src/queues/jobs.ts`. */
export interface Job {
  readonly kind: 'send-welcome-email' | 'rebuild-report';
  readonly target: string;
}

const KINDS: readonly Job['kind'][] = ['send-welcome-email', 'rebuild-report'];

/** Checks a request body: returns the problem, or undefined when it is a valid job. */
export function checkJob(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return 'expected a JSON object { "kind": "...", "target": "..." }';
  const { kind, target } = body as { kind?: unknown; target?: unknown };
  if (typeof kind !== 'string' || !KINDS.includes(kind as Job['kind'])) return `"kind" must be one of ${KINDS.join(', ')}`;
  if (typeof target !== 'string' || target.trim() === '') return '"target" must be a non-empty string';
  return undefined;
}

/** Does the work of one job. Replace with the real thing (send the email, rebuild the report). */
export async function runJob(job: Job): Promise<{ readonly done: string }> {
  return { done: `${job.kind} for ${job.target}` };
}
