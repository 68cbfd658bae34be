import type { AttributeValue, DynamoDBClient, DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { WS_REGISTRY_TABLE as T } from '@framework/core/names';
import { loadDynamoDB, type DynamoDBModule } from '../../idempotency/private/load-dynamodb.js';
import { WsRegistryError, type ConnectionQuery, type ConnectionRegistry, type RegisteredConnection } from './connection-registry.js';

type Item = Record<string, AttributeValue>;

const CONNECTION_SK = '#';
const pkOf = (connectionId: string) => `c#${connectionId}`;
const topicKey = (topic: string) => `t#${topic}`;
const userKey = (subject: string) => `u#${subject}`;
const NAMES = { '#pk': T.partitionKey, '#gk': T.memberKey, '#ttl': T.ttl };

/**
 * The deployed registry: one DynamoDB table (layout in core's `WS_REGISTRY_TABLE`). A connection is one item, each of
 * its subscriptions another under the same partition key, so forgetting a connection is one query and one batch
 * delete; lookups by user and by topic read the `members` index. Expired items (a `$disconnect` that never ran) are
 * skipped by reads before DynamoDB's TTL deletes them.
 */
export class DynamoDBConnectionRegistry implements ConnectionRegistry {
  constructor(
    private readonly sdk: DynamoDBModule,
    public readonly client: DynamoDBClient,
    public readonly tableName: string,
  ) {}

  async register(connection: RegisteredConnection): Promise<void> {
    const item: Item = {
      [T.partitionKey]: { S: pkOf(connection.connectionId) },
      [T.sortKey]: { S: CONNECTION_SK },
      [T.ttl]: { N: String(connection.expiresAt) },
      connectedAt: { N: String(connection.connectedAt) },
    };
    if (connection.subject) {
      item[T.memberKey] = { S: userKey(connection.subject) };
      item['subject'] = { S: connection.subject };
    }
    await this.run('record a connection', () => this.client.send(new this.sdk.PutItemCommand({ TableName: this.tableName, Item: item })));
  }

  async remove(connectionId: string): Promise<void> {
    const keys: Item[] = [];
    await this.run('forget a connection', async () => {
      let start: Item | undefined;
      do {
        const page = await this.client.send(
          new this.sdk.QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: '#pk = :pk',
            ExpressionAttributeNames: { '#pk': NAMES['#pk'], '#sk': T.sortKey },
            ExpressionAttributeValues: { ':pk': { S: pkOf(connectionId) } },
            ProjectionExpression: '#pk, #sk',
            ConsistentRead: true,
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        );
        keys.push(...(page.Items ?? []));
        start = page.LastEvaluatedKey;
      } while (start);
      for (let i = 0; i < keys.length; i += 25) {
        let requests = keys.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } }));
        for (let attempt = 0; requests.length > 0; attempt++) {
          if (attempt === 5) throw new Error(`${requests.length} deletes stayed unprocessed`);
          if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
          const out = await this.client.send(new this.sdk.BatchWriteItemCommand({ RequestItems: { [this.tableName]: requests } }));
          requests = (out.UnprocessedItems?.[this.tableName] ?? []) as typeof requests;
        }
      }
    });
  }

  async subscribe(connectionId: string, topic: string, nowMs: number): Promise<boolean> {
    return this.run('subscribe a connection', async () => {
      const out = await this.client.send(
        new this.sdk.GetItemCommand({ TableName: this.tableName, Key: { [T.partitionKey]: { S: pkOf(connectionId) }, [T.sortKey]: { S: CONNECTION_SK } }, ConsistentRead: true }),
      );
      const ttl = out.Item?.[T.ttl]?.N;
      if (ttl === undefined || Number(ttl) * 1000 <= nowMs) return false;
      // The subscription expires with its connection.
      await this.client.send(
        new this.sdk.PutItemCommand({
          TableName: this.tableName,
          Item: { [T.partitionKey]: { S: pkOf(connectionId) }, [T.sortKey]: { S: topicKey(topic) }, [T.memberKey]: { S: topicKey(topic) }, [T.ttl]: { N: ttl } },
        }),
      );
      return true;
    });
  }

  async unsubscribe(connectionId: string, topic: string): Promise<void> {
    await this.run('unsubscribe a connection', () =>
      this.client.send(new this.sdk.DeleteItemCommand({ TableName: this.tableName, Key: { [T.partitionKey]: { S: pkOf(connectionId) }, [T.sortKey]: { S: topicKey(topic) } } })),
    );
  }

  async connections(query: ConnectionQuery, nowMs: number): Promise<string[]> {
    const member = query.topic !== undefined ? topicKey(query.topic) : userKey(query.user);
    return this.run('list connections', async () => {
      const ids: string[] = [];
      let start: Item | undefined;
      do {
        const page = await this.client.send(
          new this.sdk.QueryCommand({
            TableName: this.tableName,
            IndexName: T.memberIndex,
            KeyConditionExpression: '#gk = :gk',
            FilterExpression: '#ttl > :now',
            ExpressionAttributeNames: NAMES,
            ExpressionAttributeValues: { ':gk': { S: member }, ':now': { N: String(Math.floor(nowMs / 1000)) } },
            ProjectionExpression: '#pk',
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        );
        for (const item of page.Items ?? []) {
          const pk = item[T.partitionKey]?.S;
          if (pk?.startsWith('c#')) ids.push(pk.slice(2));
        }
        start = page.LastEvaluatedKey;
      } while (start);
      return ids;
    });
  }

  private async run<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw new WsRegistryError(operation, error);
    }
  }
}

export interface DynamoDBConnectionRegistryOptions {
  readonly tableName: string;
  /** @default - a new DynamoDBClient(clientConfig) */
  readonly client?: DynamoDBClient;
  /** @default {} (region and credentials from the environment) */
  readonly clientConfig?: DynamoDBClientConfig;
}

/** The DynamoDB registry; the SDK is imported here, on first use. */
export async function createDynamoDBConnectionRegistry(options: DynamoDBConnectionRegistryOptions): Promise<DynamoDBConnectionRegistry> {
  const { sdk, client } = await loadDynamoDB(options.client, options.clientConfig);
  return new DynamoDBConnectionRegistry(sdk, client, options.tableName);
}
