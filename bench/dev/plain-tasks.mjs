// The anchor for GET /tasks: plain Fastify + `pg` on the database engine's own port (no proxy, no worker hop), doing
// per request the same work as the example's route (examples/tasks-api/src/routes/tasks/get.ts), so the ratio
// measures the framework's overhead and not a lighter job:
// - auth: the bearer token verified as fw dev's local issuer does (RS256 against the issuer's JWKS, fetched once and
//   cached by jose; `iss`, `exp` required, the audience from `aud` or else Cognito's `client_id`), verified results
//   kept until the token's `exp` as fw dev keeps them (a production server keeps its verifier's answers the same way);
//   then the `tasks:read` scope (`scope`, or `scp` as the local issuer mints it).
// - tenancy: the tenant from the `custom:tenant_id` claim, then the statement runs as the app role with that tenant
//   under row-level security, sent as @framework/data sends it: `SELECT set_config('role', 'fw_app', true),
//   set_config('app.tenant_id', <tenant>, true)` and the SELECT in one round trip and one implicit transaction
//   (Parse/Bind/Execute of the settings, then the query's, then one Sync), the settings' answer dropped.
// - the same `?status` check, the same SELECT, the same rows and the same JSON answer.
// Usage: node plain-tasks.mjs <database port> <database name> <port> <issuer URL> <audience>. Prints "ready".
import Fastify from 'fastify';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import pg from 'pg';

const [databasePort, database, port, issuer, audience] = process.argv.slice(2);
const pool = new pg.Pool({ host: '127.0.0.1', port: Number(databasePort), user: 'postgres', database, max: 10 });
const jwks = createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks.json`));

class HttpError extends Error {
  constructor(statusCode, message) {
    super(message);
    this.statusCode = statusCode;
  }
}

/** Verified tokens until their `exp` (at most 1000, the oldest dropped first), as fw dev's local issuer keeps them. */
const verified = new Map();
async function verify(token) {
  const cached = verified.get(token);
  if (cached && cached.exp > Math.floor(Date.now() / 1000)) return cached;
  let payload;
  try {
    ({ payload } = await jwtVerify(token, jwks, { issuer, algorithms: ['RS256'], requiredClaims: ['exp'] }));
  } catch (error) {
    throw new HttpError(401, `token rejected: ${error.message}`);
  }
  const accepted = payload.aud !== undefined ? [payload.aud].flat().includes(audience) : payload.client_id === audience;
  if (!accepted) throw new HttpError(401, 'token rejected: audience');
  if (verified.size >= 1000) verified.delete(verified.keys().next().value);
  verified.set(token, payload);
  return payload;
}

/** One statement preceded by the transaction settings, in one round trip (as @framework/data's StatementWithSettings). */
class StatementWithSettings extends pg.Query {
  constructor(settingsText, text, values) {
    super({ text, values, queryMode: 'extended' });
    this.settingsText = settingsText;
    this.settingsAnswered = false;
  }
  prepare(connection) {
    this.settingsAnswered = false;
    connection.parse({ text: this.settingsText, name: '', types: [] }, false);
    connection.bind({ portal: '', statement: '', values: [] }, false);
    connection.execute({ portal: '' }, false);
    super.prepare(connection);
  }
  handleDataRow(message) {
    if (this.settingsAnswered) super.handleDataRow(message);
  }
  handleCommandComplete(message, connection) {
    if (!this.settingsAnswered) this.settingsAnswered = true;
    else super.handleCommandComplete(message, connection);
  }
}

async function queryAsTenant(tenant, text, values) {
  const settings = `SELECT set_config('role', 'fw_app', true), set_config('app.tenant_id', ${pg.escapeLiteral(tenant)}, true)`;
  const client = await pool.connect();
  try {
    return await new Promise((resolve, reject) => {
      const query = new StatementWithSettings(settings, text, values);
      query.callback = (error, result) => (error ? reject(error) : resolve(result));
      client.query(query);
    });
  } finally {
    client.release();
  }
}

const app = Fastify({ logger: false });
app.setErrorHandler((error, _request, reply) => reply.code(error.statusCode ?? 500).send({ message: error.message }));
app.get('/tasks', async (request) => {
  const header = request.headers.authorization ?? '';
  if (!header.startsWith('Bearer ')) throw new HttpError(401, 'no bearer token');
  const claims = await verify(header.slice('Bearer '.length));
  const scopes = typeof claims.scope === 'string' ? claims.scope.split(' ') : Array.isArray(claims.scp) ? claims.scp : [];
  // The local issuer prefixes scopes with the resource server (`<project>/tasks:read`), as Cognito does.
  if (!scopes.some((s) => s === 'tasks:read' || s.endsWith('/tasks:read'))) throw new HttpError(403, 'missing scope tasks:read');
  const tenant = claims['custom:tenant_id'];
  if (typeof tenant !== 'string' || !/^[\w-]{1,64}$/.test(tenant)) throw new HttpError(400, 'no tenant');
  const status = request.query.status;
  if (status !== undefined && status !== 'open' && status !== 'done') throw new HttpError(400, 'status must be open or done');
  const sub = String(claims.sub);
  const { rows } = status
    ? await queryAsTenant(tenant, 'SELECT * FROM tasks WHERE owner = $1 AND status = $2 ORDER BY created_at, id', [sub, status])
    : await queryAsTenant(tenant, 'SELECT * FROM tasks WHERE owner = $1  ORDER BY created_at, id', [sub]);
  return { tasks: rows.map((r) => ({ id: r.id, title: r.title, status: r.status, createdAt: r.created_at.toISOString(), updatedAt: r.updated_at.toISOString() })) };
});
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.stdout.write('ready\n');
process.on('SIGTERM', () => app.close().then(() => pool.end()).then(() => process.exit(0)));
