import type { DynamoDBClient, DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';

export type DynamoDBModule = typeof import('@aws-sdk/client-dynamodb');

/**
 * Loads the DynamoDB client only when a DynamoDB store is created: a function that uses the in-memory store (or no
 * idempotency at all) never pays for the SDK's import.
 */
export async function loadDynamoDB(
  client: DynamoDBClient | undefined,
  clientConfig: DynamoDBClientConfig | undefined,
): Promise<{ sdk: DynamoDBModule; client: DynamoDBClient }> {
  const sdk = await import('@aws-sdk/client-dynamodb');
  return { sdk, client: client ?? new sdk.DynamoDBClient(clientConfig ?? {}) };
}

/** Whether `error` is DynamoDB's failed-condition error (by name: the SDK's classes differ between copies). */
export function isConditionFailure(error: unknown): error is Error & { Item?: Record<string, unknown> } {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}
