import { randomUUID } from 'node:crypto';
import { sql, type Queryable } from '@framework/data';
import type { EnvelopeCipher } from '../crypto/envelope-cipher.js';

/** A receiver registered by an owner: where to POST, for which event types. Its signing secret is never listed. */
export interface WebhookEndpoint {
  readonly id: string;
  readonly owner: string;
  readonly url: string;
  /** Event types delivered to it; `*` for all. */
  readonly eventTypes: readonly string[];
  readonly createdAt: Date;
}

/** An endpoint with its signing secret (`whsec_...`): what registration answers and what a delivery signs with. */
export interface WebhookEndpointWithSecret extends WebhookEndpoint {
  readonly secret: string;
}

interface EndpointRow {
  id: string;
  owner: string;
  url: string;
  /** The secret in the vault's envelope form; null only for a row written before the secrets were encrypted. */
  secret_encrypted: string | null;
  /** A secret written in plain text by the package's first migration (`0002_…` moved it here); null once encrypted. */
  legacy_secret: string | null;
  event_types: string[];
  created_at: Date;
}

const toEndpoint = (row: EndpointRow): WebhookEndpoint => ({ id: row.id, owner: row.owner, url: row.url, eventTypes: row.event_types, createdAt: row.created_at });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The additional data a secret is encrypted with: its row's id, so a ciphertext copied to another row does not decrypt. */
const secretAad = (id: string) => `webhook-secret:${id}`;

/**
 * Endpoints in `fw_webhook_endpoints` (the package's migrations); every read but the delivery's names the owner.
 * Signing secrets are stored envelope-encrypted with the integrations vault key (as OAuth tokens are): a copy of the
 * table alone cannot forge a webhook.
 */
export class WebhookEndpointStore {
  constructor(
    private readonly db: () => Queryable,
    private readonly cipher: () => EnvelopeCipher,
  ) {}

  async insert(owner: string, url: string, secret: string, eventTypes: readonly string[]): Promise<WebhookEndpointWithSecret> {
    // The id is made here: the ciphertext is bound to it before the row exists.
    const id = randomUUID();
    const encrypted = await this.cipher().encrypt(secret, secretAad(id));
    const row = await this.db().one<EndpointRow>(sql`INSERT INTO fw_webhook_endpoints (id, owner, url, secret_encrypted, event_types) VALUES (${id}, ${owner}, ${url}, ${encrypted}, ${[...eventTypes]}) RETURNING *`);
    return { ...toEndpoint(row), secret };
  }

  /** The endpoint with its secret (decrypted), for a delivery. */
  async byIdWithSecret(id: string): Promise<WebhookEndpointWithSecret | undefined> {
    if (!UUID.test(id)) return undefined;
    const row = await this.db().maybeOne<EndpointRow>(sql`SELECT * FROM fw_webhook_endpoints WHERE id = ${id}`);
    return row ? { ...toEndpoint(row), secret: await this.secretOf(row) } : undefined;
  }

  /** The owner's endpoint with its secret (to show it to its owner again), or undefined. */
  async getWithSecret(owner: string, id: string): Promise<WebhookEndpointWithSecret | undefined> {
    if (!UUID.test(id)) return undefined;
    const row = await this.db().maybeOne<EndpointRow>(sql`SELECT * FROM fw_webhook_endpoints WHERE id = ${id} AND owner = ${owner}`);
    return row ? { ...toEndpoint(row), secret: await this.secretOf(row) } : undefined;
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

  /**
   * Encrypts the secrets still stored in plain text (rows older than the encryption); the number of rows encrypted.
   * Deliveries also encrypt a plain-text secret the first time they read it.
   */
  async encryptLegacySecrets(batchSize = 100): Promise<number> {
    let done = 0;
    for (;;) {
      const rows = await this.db().many<EndpointRow>(sql`SELECT * FROM fw_webhook_endpoints WHERE legacy_secret IS NOT NULL ORDER BY id LIMIT ${batchSize}`);
      if (rows.length === 0) return done;
      for (const row of rows) if (await this.encryptLegacy(row, row.legacy_secret!)) done += 1;
    }
  }

  private async secretOf(row: EndpointRow): Promise<string> {
    if (row.secret_encrypted !== null) return this.cipher().decrypt(row.secret_encrypted, secretAad(row.id));
    const secret = row.legacy_secret!;
    await this.encryptLegacy(row, secret);
    return secret;
  }

  /** Replaces a plain-text secret by its ciphertext (once: a concurrent writer that did it first wins). */
  private async encryptLegacy(row: EndpointRow, secret: string): Promise<boolean> {
    const encrypted = await this.cipher().encrypt(secret, secretAad(row.id));
    const updated = await this.db().maybeOne<{ id: string }>(sql`UPDATE fw_webhook_endpoints SET secret_encrypted = ${encrypted}, legacy_secret = NULL WHERE id = ${row.id} AND legacy_secret IS NOT NULL RETURNING id`);
    return updated !== undefined;
  }
}
