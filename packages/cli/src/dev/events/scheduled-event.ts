import { randomUUID } from 'node:crypto';
import type { EventBridgeEvent } from 'aws-lambda';

/** The event a scheduled rule delivers (`detail-type: Scheduled Event`, `source: aws.events`). */
export function buildScheduledEvent(region: string, ruleName: string, time: Date = new Date()): EventBridgeEvent<'Scheduled Event', Record<string, never>> {
  return {
    'version': '0',
    'id': randomUUID(),
    'detail-type': 'Scheduled Event',
    'source': 'aws.events',
    'account': '000000000000',
    'time': time.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    'region': region,
    'resources': [`arn:aws:events:${region}:000000000000:rule/${ruleName}`],
    'detail': {},
  };
}
