import { processRecords, taskHandler, type SQSEvent } from '@framework/runtime';
import { ingestAttachments } from '../lib/ai.js';
import '../lib/tenancy.js';

/**
 * Consumer of `ai-ingest`, fed by the attachments bucket's "object created" notifications (fw.config.ts): each new
 * file is read, its text extracted, chunked, embedded and upserted into the collection POST /ask searches, once per
 * ETag (a redelivered message costs one read). Images are skipped. A file that cannot be read throws: the record is
 * retried, then dead-lettered.
 */
export const main = taskHandler<SQSEvent>(
  async (event, _ctx, service) => processRecords(event, (body) => ingestAttachments(service.db, service.storage.bucket('attachments'), body)),
  { retries: 1 },
);
