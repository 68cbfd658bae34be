import { sql, type Queryable } from '@framework/data';

/** A receiver registered by an owner: where to POST, with which secret, for which event types. */
export interface WebhookEndpoint {
  readonly id: string;
  readonly owner: string;
  readonly url: string;
  /** The signing secret (`whsec_...`): shown to the owner at registration, used by every delivery. */
  readonly secret: string;
  /** Event types delivered to it; `*` for all. */
  readonly eventTypes: readonly string[];
  readonly createdAt: Date;
}

interface EndpointRow {
  id: string;
  owner: string;
  url: string;
  secret: string;
  event_types: string[];
  created_at: Date;
}

const toEndpoint = (row: EndpointRow): WebhookEndpoint => ({ id: row.id, owner: row.owner, url: row.url, secret: row.secret, eventTypes: row.event_types, createdAt: row.created_at });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Endpoints in `fw_webhook_endpoints` (the package's migration); every read but the delivery's names the owner. */
export class WebhookEndpointStore {
  constructor(private readonly db: () => Queryable) {}

  async insert(owner: string, url: string, secret: string, eventTypes: readonly string[]): Promise<WebhookEndpoint> {
    return toEndpoint(await this.db().one<EndpointRow>(sql`INSERT INTO fw_webhook_endpoints (owner, url, secret, event_types) VALUES (${owner}, ${url}, ${secret}, ${[...eventTypes]}) RETURNING *`));
  }

  async byId(id: string): Promise<WebhookEndpoint | undefined> {
    if (!UUID.test(id)) return undefined;
    const row = await this.db().maybeOne<EndpointRow>(sql`SELECT * FROM fw_webhook_endpoints WHERE id = ${id}`);
    return row ? toEndpoint(row) : undefined;
  }

  async list(owner: string): Promise<WebhookEndpoint[]> {
    return (await this.db().many<EndpointRow>(sql`SELECT * FROM fw_webhook_endpoints WHERE owner = ${owner} ORDER BY created_at, id`)).map(toEndpoint);
  }

  async forEvent(owner: string, type: string): Promise<WebhookEndpoint[]> {
    const rows = await this.db().many<EndpointRow>(sql`SELECT * FROM fw_webhook_endpoints WHERE owner = ${owner} AND (${type} = ANY(event_types) OR '*' = ANY(event_types)) ORDER BY created_at, id`);
    return rows.map(toEndpoint);
  }

  async remove(owner: string, id: string): Promise<boolean> {
    if (!UUID.test(id)) return false;
    return (await this.db().maybeOne<{ id: string }>(sql`DELETE FROM fw_webhook_endpoints WHERE id = ${id} AND owner = ${owner} RETURNING id`)) !== undefined;
  }
}
