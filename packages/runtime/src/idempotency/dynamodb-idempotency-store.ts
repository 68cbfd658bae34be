import type { AttributeValue, DynamoDBClient, DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DEFAULT_IDEMPOTENCY_TABLE } from '@framework/core/names';
import { IdempotencyConfigError, IdempotencyError, IdempotencyNotOwnerError, IdempotencyStoreError } from './errors.js';
import type { AcquireResult, IdempotencyRecord, IdempotencyStore, IdempotencyStatus, PendingIdempotencyRecord } from './idempotency-store.js';
import { isConditionFailure, loadDynamoDB, type DynamoDBModule } from './private/load-dynamodb.js';
import { decodeStoredData, encodeStoredData } from './private/stored-data.js';

export interface DynamoDBIdempotencyStoreOptions {
  /**
   * The table: string partition key `pk`, numeric TTL attribute `ttl` (enable TTL on it so old records go away).
   * @default 'framework-idempotency'
   */
  readonly tableName?: string;
  /** A client to use (shared connections, custom middleware). @default - a new DynamoDBClient(clientConfig) */
  readonly client?: DynamoDBClient;
  /** Configuration of the client created when `client` is not given. @default {} (region and credentials from the environment) */
  readonly clientConfig?: DynamoDBClientConfig;
}

type Item = Record<string, AttributeValue>;

/** Attribute names; several are DynamoDB reserved words, so expressions always go through `#` aliases. */
const NAMES = { '#pk': 'pk', '#status': 'status', '#ttl': 'ttl', '#lease': 'lease', '#owner': 'owner', '#data': 'data', '#gz': 'dataGz' };

/**
 * The cloud store. One request per operation:
 * - acquire: one conditional PutItem (no record, or expired, or lease over) with `ReturnValuesOnConditionCheckFailure:
 *   'ALL_OLD'`, so a conflict returns the holder's record without a second read;
 * - complete / release: UpdateItem / DeleteItem conditioned on the owner token;
 * - get: a consistent GetItem, expiry checked from the stored times.
 */
export class DynamoDBIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly sdk: DynamoDBModule,
    public readonly client: DynamoDBClient,
    public readonly tableName: string,
  ) {}

  public async acquire(record: PendingIdempotencyRecord, nowMs: number, attempt = 1): Promise<AcquireResult> {
    const item: Item = {
      pk: { S: record.key },
      status: { S: 'pending' },
      ttl: { N: String(record.expiresAt) },
      lease: { N: String(record.leaseExpiresAt) },
      owner: { S: record.owner },
    };
    if (record.fingerprint !== undefined) item.fp = { S: record.fingerprint };
    try {
      await this.client.send(
        new this.sdk.PutItemCommand({
          TableName: this.tableName,
          Item: item,
          ConditionExpression: 'attribute_not_exists(#pk) OR #ttl <= :nowS OR (#status = :pending AND #lease <= :nowMs)',
          ExpressionAttributeNames: { '#pk': NAMES['#pk'], '#ttl': NAMES['#ttl'], '#status': NAMES['#status'], '#lease': NAMES['#lease'] },
          ExpressionAttributeValues: {
            ':nowS': { N: String(Math.floor(nowMs / 1000)) },
            ':nowMs': { N: String(nowMs) },
            ':pending': { S: 'pending' },
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { acquired: true };
    } catch (error) {
      if (isConditionFailure(error)) {
        const old = error.Item as Item | undefined;
        if (old) return { acquired: false, existing: fromItem(old) };
        // Not expected (the condition only fails on an existing item); read it rather than guess.
        const existing = await this.get(record.key, nowMs);
        if (existing) return { acquired: false, existing };
        if (attempt < 3) return this.acquire(record, nowMs, attempt + 1);
      }
      throw new IdempotencyStoreError('acquire a record', error);
    }
  }

  public async get(key: string, nowMs: number): Promise<IdempotencyRecord | undefined> {
    let item: Item | undefined;
    try {
      const out = await this.client.send(
        new this.sdk.GetItemCommand({ TableName: this.tableName, Key: { pk: { S: key } }, ConsistentRead: true }),
      );
      item = out.Item;
    } catch (error) {
      throw new IdempotencyStoreError('read a record', error);
    }
    if (!item) return undefined;
    const record = fromItem(item);
    if (record.expiresAt * 1000 <= nowMs) return undefined;
    if (record.status === 'pending' && (record.leaseExpiresAt ?? 0) <= nowMs) return undefined;
    return record;
  }

  public async complete(key: string, owner: string, data: string, expiresAt: number): Promise<void> {
    const encoded = encodeStoredData(data);
    const isText = 'text' in encoded;
    try {
      await this.client.send(
        new this.sdk.UpdateItemCommand({
          TableName: this.tableName,
          Key: { pk: { S: key } },
          UpdateExpression: `SET #status = :completed, #ttl = :ttl, ${isText ? '#data' : '#gz'} = :data REMOVE #lease, #owner`,
          ConditionExpression: '#owner = :owner AND #status = :pending',
          ExpressionAttributeNames: {
            '#status': NAMES['#status'],
            '#ttl': NAMES['#ttl'],
            '#lease': NAMES['#lease'],
            '#owner': NAMES['#owner'],
            ...(isText ? { '#data': NAMES['#data'] } : { '#gz': NAMES['#gz'] }),
          },
          ExpressionAttributeValues: {
            ':completed': { S: 'completed' },
            ':pending': { S: 'pending' },
            ':ttl': { N: String(expiresAt) },
            ':owner': { S: owner },
            ':data': isText ? { S: encoded.text } : { B: encoded.gzip },
          },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new IdempotencyNotOwnerError(key);
      if (error instanceof IdempotencyError) throw error;
      throw new IdempotencyStoreError('complete a record', error);
    }
  }

  public async release(key: string, owner: string): Promise<void> {
    try {
      await this.client.send(
        new this.sdk.DeleteItemCommand({
          TableName: this.tableName,
          Key: { pk: { S: key } },
          ConditionExpression: 'attribute_not_exists(#pk) OR #owner = :owner',
          ExpressionAttributeNames: { '#pk': NAMES['#pk'], '#owner': NAMES['#owner'] },
          ExpressionAttributeValues: { ':owner': { S: owner } },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new IdempotencyNotOwnerError(key);
      throw new IdempotencyStoreError('delete a record', error);
    }
  }
}

function fromItem(item: Item): IdempotencyRecord {
  const status = (item.status?.S ?? 'pending') as IdempotencyStatus;
  const data = item.data?.S !== undefined ? item.data.S : item.dataGz?.B ? decodeStoredData({ gzip: item.dataGz.B }) : undefined;
  return {
    key: item.pk?.S ?? '',
    status,
    expiresAt: Number(item.ttl?.N ?? 0),
    ...(item.fp?.S !== undefined ? { fingerprint: item.fp.S } : {}),
    ...(item.lease?.N !== undefined ? { leaseExpiresAt: Number(item.lease.N) } : {}),
    ...(item.owner?.S !== undefined ? { owner: item.owner.S } : {}),
    ...(data !== undefined ? { data } : {}),
  };
}

/**
 * The DynamoDB store (async: the SDK is imported here, not when the runtime loads).
 * @example const store = await createDynamoDBIdempotencyStore({ tableName: process.env.FW_IDEMPOTENCY_TABLE });
 */
export async function createDynamoDBIdempotencyStore(options: DynamoDBIdempotencyStoreOptions = {}): Promise<DynamoDBIdempotencyStore> {
  const tableName = options.tableName ?? DEFAULT_IDEMPOTENCY_TABLE;
  if (tableName.length === 0) throw new IdempotencyConfigError('createDynamoDBIdempotencyStore: tableName is empty; omit it for the default table.');
  const { sdk, client } = await loadDynamoDB(options.client, options.clientConfig);
  return new DynamoDBIdempotencyStore(sdk, client, tableName);
}
