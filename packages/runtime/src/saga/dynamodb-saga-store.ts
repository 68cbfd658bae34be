import type { AttributeValue, DynamoDBClient, DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DEFAULT_IDEMPOTENCY_TABLE } from '@framework/core/names';
import { IdempotencyConfigError, IdempotencyError, IdempotencyStoreError, SagaLeaseLostError } from '../idempotency/errors.js';
import { isConditionFailure, loadDynamoDB, type DynamoDBModule } from '../idempotency/private/load-dynamodb.js';
import { decodeStoredData, encodeStoredData } from '../idempotency/private/stored-data.js';
import type { SagaClaim, SagaState, SagaStore } from './saga-store.js';

export interface DynamoDBSagaStoreOptions {
  /**
   * The table (the idempotency table: string partition key `pk`, numeric TTL attribute `ttl`; saga keys start with `saga#`).
   * @default 'framework-idempotency'
   */
  readonly tableName?: string;
  /** @default - a new DynamoDBClient(clientConfig) */
  readonly client?: DynamoDBClient;
  /** @default {} */
  readonly clientConfig?: DynamoDBClientConfig;
}

type Item = Record<string, AttributeValue>;

/**
 * Saga runs in DynamoDB, one item per run: the state as JSON (`data`, or gzip in `dataGz` when large), its status
 * (readable in the console), the lease owner and end. Claim is one UpdateItem; saves are owner-conditioned.
 */
export class DynamoDBSagaStore implements SagaStore {
  constructor(
    private readonly sdk: DynamoDBModule,
    public readonly client: DynamoDBClient,
    public readonly tableName: string,
  ) {}

  public async claim(key: string, owner: string, leaseExpiresAt: number, nowMs: number, initial: SagaState, expiresAt: number): Promise<SagaClaim> {
    try {
      const out = await this.client.send(
        new this.sdk.UpdateItemCommand({
          TableName: this.tableName,
          Key: { pk: { S: key } },
          UpdateExpression:
            'SET #owner = :owner, #lease = :lease, #ttl = if_not_exists(#ttl, :ttl), #data = if_not_exists(#data, :initial), #status = if_not_exists(#status, :status)',
          ConditionExpression: 'attribute_not_exists(#pk) OR #ttl <= :nowS OR #lease <= :nowMs OR #owner = :owner',
          ExpressionAttributeNames: { '#pk': 'pk', '#owner': 'owner', '#lease': 'lease', '#ttl': 'ttl', '#data': 'data', '#status': 'status' },
          ExpressionAttributeValues: {
            ':owner': { S: owner },
            ':lease': { N: String(leaseExpiresAt) },
            ':ttl': { N: String(expiresAt) },
            ':initial': { S: JSON.stringify(initial) },
            ':status': { S: initial.status },
            ':nowS': { N: String(Math.floor(nowMs / 1000)) },
            ':nowMs': { N: String(nowMs) },
          },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      const item = out.Attributes ?? {};
      return { claimed: true, state: stateOf(item), expiresAt: Number(item.ttl?.N ?? expiresAt) };
    } catch (error) {
      if (isConditionFailure(error)) {
        const old = error.Item as Item | undefined;
        return { claimed: false, leaseExpiresAt: Number(old?.lease?.N ?? nowMs) };
      }
      throw new IdempotencyStoreError('claim a saga run', error);
    }
  }

  public async save(key: string, owner: string, state: SagaState, leaseExpiresAt: number, expiresAt: number): Promise<void> {
    const encoded = encodeStoredData(JSON.stringify(state));
    const isText = 'text' in encoded;
    try {
      await this.client.send(
        new this.sdk.UpdateItemCommand({
          TableName: this.tableName,
          Key: { pk: { S: key } },
          UpdateExpression: `SET #status = :status, #lease = :lease, #ttl = :ttl, ${isText ? '#data' : '#gz'} = :data REMOVE ${isText ? '#gz' : '#data'}`,
          ConditionExpression: '#owner = :owner',
          ExpressionAttributeNames: { '#status': 'status', '#lease': 'lease', '#ttl': 'ttl', '#data': 'data', '#gz': 'dataGz', '#owner': 'owner' },
          ExpressionAttributeValues: {
            ':status': { S: state.status },
            ':lease': { N: String(leaseExpiresAt) },
            ':ttl': { N: String(expiresAt) },
            ':data': isText ? { S: encoded.text } : { B: encoded.gzip },
            ':owner': { S: owner },
          },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new SagaLeaseLostError(key);
      if (error instanceof IdempotencyError) throw error;
      throw new IdempotencyStoreError('save a saga run', error);
    }
  }

  public async get(key: string): Promise<{ state: SagaState; expiresAt: number } | undefined> {
    try {
      const out = await this.client.send(new this.sdk.GetItemCommand({ TableName: this.tableName, Key: { pk: { S: key } }, ConsistentRead: true }));
      return out.Item ? { state: stateOf(out.Item), expiresAt: Number(out.Item.ttl?.N ?? 0) } : undefined;
    } catch (error) {
      throw new IdempotencyStoreError('read a saga run', error);
    }
  }
}

/** `dataGz` wins when present: a save always removes the other attribute, a claim may only add `data`. */
function stateOf(item: Item): SagaState {
  const text = item.dataGz?.B ? decodeStoredData({ gzip: item.dataGz.B }) : (item.data?.S ?? 'null');
  return JSON.parse(text) as SagaState;
}

/** The DynamoDB saga store (async: the SDK is imported here). */
export async function createDynamoDBSagaStore(options: DynamoDBSagaStoreOptions = {}): Promise<DynamoDBSagaStore> {
  const tableName = options.tableName ?? DEFAULT_IDEMPOTENCY_TABLE;
  if (tableName.length === 0) throw new IdempotencyConfigError('createDynamoDBSagaStore: tableName is empty; omit it for the default table.');
  const { sdk, client } = await loadDynamoDB(options.client, options.clientConfig);
  return new DynamoDBSagaStore(sdk, client, tableName);
}
