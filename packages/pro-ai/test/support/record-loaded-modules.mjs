// Preloaded with `node --import`: appends the URL of every ES module the process loads to the file that
// FW_RECORD_MODULES names, one per line (node's module hooks; they run on their own thread, where this file is
// loaded again as the hooks module).
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

let out;

export function initialize(data) {
  out = data.out;
}

export async function load(url, context, nextLoad) {
  appendFileSync(out, `${url}\n`);
  return nextLoad(url, context);
}

if (isMainThread) register(import.meta.url, { data: { out: process.env.FW_RECORD_MODULES } });
