import { expect } from 'chai';
import { handler } from '@framework/runtime';
import { Database, sql } from '../src/index.js';
import { ENGINES, useEngine } from './support/engines.js';

type APIGatewayProxyEventV2 = Parameters<ReturnType<typeof handler>>[0];

/** An HTTP API (payload 2.0) event as API Gateway sends it, with the fields a route reads. */
function event(method: string, path: string, options: { body?: string; query?: Record<string, string> } = {}): APIGatewayProxyEventV2 {
  const rawQueryString = new URLSearchParams(options.query ?? {}).toString();
  return {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString,
    headers: { 'content-type': 'application/json', host: 'api.example.com' },
    ...(options.query ? { queryStringParameters: options.query } : {}),
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      domainName: 'api.example.com',
      domainPrefix: 'api',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '198.51.100.7', userAgent: 'test' },
      requestId: 'req-1',
      routeKey: `${method} ${path}`,
      stage: '$default',
      time: '22/Nov/2026:00:00:00 +0000',
      timeEpoch: 0,
    },
    isBase64Encoded: false,
    ...(options.body !== undefined ? { body: options.body } : {}),
  };
}

for (const engine of ENGINES) {
  describe(`database errors a client caused, answered by a route on ${engine.name}`, () => {
    const server = useEngine(engine);
    let db: Database;

    before(async () => {
      db = new Database({ connection: server().connection, logger: { warn: () => undefined } });
      await db.query(sql`CREATE TABLE items (id serial PRIMARY KEY, name text NOT NULL, price numeric(6, 2) NOT NULL, due date)`);
      await db.query(sql`INSERT INTO items (name, price) VALUES ${sql.values([['a', 1], ['b', 2]])}`);
    });
    after(async () => db?.end());

    const create = handler(async (body: unknown) => {
      const { name, price, due } = body as { name: string; price: unknown; due?: string };
      return db.one(sql`INSERT INTO items (name, price, due) VALUES (${name}, ${price}, ${due}) RETURNING id`);
    });
    const list = handler(async (_body, ctx) =>
      db.paginate(sql`SELECT id, name FROM items`, { orderBy: [{ column: 'id' }], limit: 1, ...(ctx.query['after'] ? { after: ctx.query['after'] } : {}) }),
    );

    const answer = async (result: Promise<{ statusCode?: number; body?: string }>) => {
      const { statusCode, body } = await result;
      return { statusCode, error: (JSON.parse(body ?? '{}') as { error?: { code: string; message: string } }).error };
    };

    it('answers 400 INVALID_TEXT, 422 INVALID_VALUE and 400 INVALID_CURSOR with a coded body quoting neither value nor statement', async () => {
      const cases = [
        { body: { name: 'zero\u0000byte', price: 1 }, status: 400, code: 'INVALID_TEXT' },
        { body: { name: 'big', price: 98765432.1 }, status: 422, code: 'INVALID_VALUE' },
        { body: { name: 'syntax', price: 'twelve-ish' }, status: 422, code: 'INVALID_VALUE' },
        { body: { name: 'when', price: 1, due: 'someday-soon' }, status: 422, code: 'INVALID_VALUE' },
      ];
      for (const c of cases) {
        const { statusCode, error } = await answer(create(event('POST', '/items', { body: JSON.stringify(c.body) })));
        expect({ statusCode, code: error?.code }, JSON.stringify(c.body)).to.deep.equal({ statusCode: c.status, code: c.code });
        expect(error?.message).not.to.match(/zero|98765432|twelve|someday|items|INSERT|numeric|\$\d/);
      }
      const forged = Buffer.from('{"o":"id:asc","v":[9223372036854775808]}').toString('base64url');
      const { statusCode, error } = await answer(list(event('GET', '/items', { query: { after: forged } })));
      expect({ statusCode, code: error?.code }).to.deep.equal({ statusCode: 400, code: 'INVALID_CURSOR' });
    });
  });
}
