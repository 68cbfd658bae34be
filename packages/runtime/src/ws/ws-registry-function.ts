import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { getRootLogger } from '../logger/logger.js';
import { broadcastBytes } from './ws-client.js';
import { authFromWsEvent, type WsEvent, type WsResult } from './ws-handler.js';
import { forgetConnection, recordConnection } from './registry/connection-lifecycle.js';
import type { FanoutBatch } from './registry/fanout.js';

/**
 * The framework's own WebSocket function (`{project}-{stage}-fw-ws-registry`, deployed by `@framework/infra` with
 * every WebSocket API): it consumes the fan-out queue (each message a batch of a large `publish`: sent, gone
 * connections forgotten) and serves `$connect` / `$disconnect` for an app without `src/ws/$connect.ts` /
 * `$disconnect.ts`, so the registry knows every connection whether or not the app handles those routes.
 *
 * A batch is sent once: a connection that fails for another reason than 410 is logged, not retried (retrying the
 * message would send it again to every connection that got it), as `broadcast` reports and does not retry.
 */
export async function wsRegistryMain(event: SQSEvent | WsEvent): Promise<WsResult | SQSBatchResponse> {
  if ('Records' in event) {
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      let batch: FanoutBatch;
      try {
        batch = JSON.parse(record.body) as FanoutBatch;
        if (!Array.isArray(batch.connectionIds) || typeof batch.data !== 'string') throw new Error('not a fan-out batch');
      } catch (error) {
        getRootLogger().error('Dropped a fan-out message that is not a batch', { messageId: record.messageId, error });
        continue;
      }
      const result = await broadcastBytes(batch.connectionIds, Buffer.from(batch.data, 'base64'));
      if (result.failed.length) getRootLogger().warn('A fan-out batch failed for some connections', { messageId: record.messageId, failed: result.failed.map((f) => ({ connectionId: f.connectionId, error: f.error.message })) });
    }
    return { batchItemFailures };
  }
  const { eventType, connectionId } = event.requestContext;
  if (eventType === 'CONNECT') {
    try {
      await recordConnection(event, authFromWsEvent(event));
    } catch (error) {
      getRootLogger().error('Could not record the WebSocket connection; refused', { connectionId, error });
      return { statusCode: 500 };
    }
  } else if (eventType === 'DISCONNECT') {
    await forgetConnection(connectionId, getRootLogger);
  }
  return { statusCode: 200 };
}
