import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import { copyExample, FW_BIN } from '../dev/helpers.js';
import { smallProject } from '../dev/small-project.js';

type Operation = { operationId: string; security?: Record<string, string[]>[]; parameters?: { name: string; in: string; required: boolean; schema: unknown }[]; requestBody?: { content: Record<string, { schema: unknown }> }; responses: Record<string, unknown>; description: string };
type Document = { openapi: string; paths: Record<string, Record<string, Operation>>; components: Record<string, Record<string, unknown>> };

function fwOpenApi(dir: string, ...args: string[]) {
  return spawnSync(process.execPath, [FW_BIN, 'openapi', ...args], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
}

/** What a document's operations require, by route key: the scopes of its OAuth 2.0 requirement, [] for public. */
function scopesByRoute(document: Document): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [p, operations] of Object.entries(document.paths)) for (const [method, op] of Object.entries(operations)) out[`${method.toUpperCase()} ${p}`] = op.security?.[0]?.oauth2 ?? [];
  return out;
}

describe('fw openapi', function () {
  this.timeout(180_000);
  const dirs: string[] = [];
  after(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  it('documents every route of the example with its scopes, as a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', async () => {
    const dir = copyExample();
    dirs.push(dir);
    const result = fwOpenApi(dir, '--out', 'openapi.json');
    expect(result.status, result.stderr).to.equal(0);
    const document = JSON.parse(fs.readFileSync(path.join(dir, 'openapi.json'), 'utf8')) as Document;

    const validator = new Validator();
    const validation = await validator.validate(document as unknown as object);
    expect(validation.errors, JSON.stringify(validation.errors, null, 2)).to.equal(undefined);
    expect(validation.valid).to.equal(true);
    expect(validator.version).to.equal('3.1');

    // Every route file of the example, with the scopes it declares (as tokens carry them: <project>/<scope>).
    expect(scopesByRoute(document)).to.deep.equal({
      'GET /health': [],
      'GET /tasks': ['tasks-api/tasks:read'],
      'POST /tasks': ['tasks-api/tasks:write'],
      'PUT /tasks/{id}': ['tasks-api/tasks:write'],
      'DELETE /tasks/{id}': ['tasks-api/tasks:admin'],
      'GET /tasks/{id}/attachments': ['tasks-api/tasks:read'],
      'POST /tasks/{id}/attachments': ['tasks-api/tasks:write'],
      'PUT /tasks/{id}/assignee': ['tasks-api/tasks:write'],
      'PUT /tasks/{id}/due': ['tasks-api/tasks:write'],
      'POST /ask': ['tasks-api/tasks:read'],
      'POST /api-keys': ['tasks-api/tasks:admin'],
      'GET /api-keys': ['tasks-api/tasks:admin'],
      'DELETE /api-keys/{id}': ['tasks-api/tasks:admin'],
      'POST /webhook-endpoints': ['tasks-api/tasks:write'],
      'POST /billing/subscribe': ['tasks-api/tasks:admin'],
      'POST /billing/checkout': ['tasks-api/tasks:admin'],
      'POST /billing/portal': ['tasks-api/tasks:admin'],
      'POST /billing/webhook': [],
      'POST /tasks/{id}/chat': ['tasks-api/tasks:write'],
      'GET /chat/rooms': ['tasks-api/tasks:read'],
      'POST /chat/rooms': ['tasks-api/tasks:read'],
      'GET /chat/rooms/{roomId}': ['tasks-api/tasks:read'],
      'GET /chat/rooms/{roomId}/messages': ['tasks-api/tasks:read'],
      'POST /chat/rooms/{roomId}/messages': ['tasks-api/tasks:read'],
      'GET /chat/rooms/{roomId}/members': ['tasks-api/tasks:read'],
      'POST /chat/rooms/{roomId}/members': ['tasks-api/tasks:read'],
      'DELETE /chat/rooms/{roomId}/members/{userId}': ['tasks-api/tasks:read'],
      'POST /chat/rooms/{roomId}/read': ['tasks-api/tasks:read'],
      'POST /members': ['tasks-api/tasks:admin'],
      'GET /members': ['tasks-api/tasks:read'],
      'DELETE /members/{email}': ['tasks-api/tasks:admin'],
    });
    const oauth2 = document.components.securitySchemes!.oauth2 as { flows: Record<string, { scopes: Record<string, string>; tokenUrl: string }> };
    expect(Object.keys(oauth2.flows).sort()).to.deep.equal(['authorizationCode', 'clientCredentials']);
    // Each flow offers what its clients may request: the reporting client (client credentials) reads only.
    expect(oauth2.flows.clientCredentials!.scopes).to.deep.equal({ 'tasks-api/tasks:read': 'Read tasks' });
    expect(Object.keys(oauth2.flows.authorizationCode!.scopes)).to.deep.equal(['tasks-api/tasks:read', 'tasks-api/tasks:write', 'tasks-api/tasks:admin']);
    expect(result.stderr).to.include("point at fw dev's issuer");

    // The schemas: POST /tasks's body and its 201 response; PUT's {id}; GET's query filter.
    const post = document.paths['/tasks']!.post!;
    expect(post.operationId).to.equal('postTasks');
    expect(post.requestBody!.content['application/json']!.schema).to.deep.include({ type: 'object', required: ['title'] });
    expect(post.responses['201']).to.have.nested.property('content.application/json.schema.required').that.includes('id');
    expect(post.responses['400']).to.deep.equal({ $ref: '#/components/responses/BadRequest' });
    expect(post.parameters!.map((p) => p.name)).to.include('Idempotency-Key');
    expect(document.paths['/tasks/{id}']!.put!.parameters).to.deep.include({ name: 'id', in: 'path', required: true, schema: { type: 'string' } });
    expect(document.paths['/tasks']!.get!.parameters).to.deep.equal([{ name: 'status', in: 'query', required: false, schema: { type: 'string', enum: ['open', 'done'] } }]);
    expect(document.paths['/health']!.get!.responses).to.not.have.property('401');
    expect(document.components.schemas).to.have.keys('ErrorBody', 'ValidationErrorBody', 'GatewayMessage');
  });

  it('a schema JSON Schema cannot express is documented as {} saying why, the rest of the document stays; --auth-url and --server-url are used', async () => {
    const dir = smallProject({
      'fw.config.ts': [
        `import { defineApp } from '@framework/core';`,
        `export default defineApp({ base: { name: 'small', region: 'eu-west-1' }, security: { scopes: { 'items:read': 'Read items' }, appClients: { jobs: { scopes: ['items:read'], flows: ['client_credentials'] } } }, envs: { dev: { preset: 'free' } }, routesDir: 'src/routes', infrastructure: { auth: {} } });`,
      ].join('\n'),
      'src/routes/items/post.ts': [
        `import { handler } from '@framework/runtime';`,
        `import { z } from 'zod';`,
        `export const main = handler({ scopes: ['items:read'], body: z.object({ name: z.string(), when: z.custom<Date>(() => true).transform(() => 1) }), fn: async () => ({ ok: true }) });`,
      ].join('\n'),
      'src/routes/items/[id]/get.ts': `import { handler } from '@framework/runtime';\nexport const main = handler(async () => ({ ok: true }));\n`,
    });
    dirs.push(dir);
    const result = fwOpenApi(dir, '--auth-url', 'https://auth.example.com/', '--server-url', 'https://api.example.com');
    expect(result.status, result.stderr).to.equal(0);
    const document = JSON.parse(result.stdout) as Document & { servers: unknown };
    expect((await new Validator().validate(document as unknown as object)).valid).to.equal(true);
    expect(document.servers).to.deep.equal([{ url: 'https://api.example.com' }]);
    expect(document.components.securitySchemes).to.deep.equal({
      oauth2: { type: 'oauth2', description: "Access tokens of the app's identity provider; each operation lists the scopes it requires.", flows: { clientCredentials: { tokenUrl: 'https://auth.example.com/oauth2/token', scopes: { 'small/items:read': 'Read items' } } } },
    });
    const body = document.paths['/items']!.post!.requestBody!.content['application/json']!.schema as Record<string, unknown>;
    expect(body).to.have.property('description').that.matches(/Partly documented|Not documented/);
    expect(result.stderr).to.match(/not fully documented: POST \/items \(src\/routes\/items\/post.ts\): body: /);
    expect(document.paths['/items/{id}']!.get!.security).to.equal(undefined);
  });

  it('documents `response` declared per status: each status with its schema (zod and valibot), still a valid document', async () => {
    const dir = smallProject({
      'src/routes/jobs/post.ts': [
        `import { handler, response } from '@framework/runtime';`,
        `import { z } from 'zod';`,
        `import * as v from 'valibot';`,
        `const job = z.object({ id: z.string(), state: z.enum(['done']) });`,
        `const accepted = v.object({ jobId: v.string(), poll: v.string() });`,
        `export const main = handler({ response: { 201: job, 202: accepted }, fn: async () => response({ statusCode: 202, body: { jobId: 'j', poll: '/jobs/j' } }) });`,
      ].join('\n'),
      'src/routes/jobs/[id]/get.ts': [
        `import { handler } from '@framework/runtime';`,
        `import { z } from 'zod';`,
        `export const main = handler({ response: { 200: z.object({ id: z.string() }), 206: z.object({ id: z.string(), partial: z.literal(true) }) }, fn: async () => ({ id: '1' }) });`,
      ].join('\n'),
    });
    dirs.push(dir);
    const result = fwOpenApi(dir);
    expect(result.status, result.stderr).to.equal(0);
    const document = JSON.parse(result.stdout) as Document;
    const validation = await new Validator().validate(document as unknown as object);
    expect(validation.errors, JSON.stringify(validation.errors, null, 2)).to.equal(undefined);
    expect(validation.valid).to.equal(true);
    expect(result.stderr).to.not.include('not fully documented');

    const post = document.paths['/jobs']!.post!.responses;
    expect(Object.keys(post).filter((status) => status.startsWith('2'))).to.deep.equal(['201', '202']);
    expect(post['201']).to.deep.include({ description: 'Created.' });
    expect(post['201']).to.have.nested.property('content.application/json.schema.properties.state.enum').that.deep.equals(['done']);
    expect(post['202']).to.deep.include({ description: 'Accepted.' });
    expect(post['202']).to.have.nested.property('content.application/json.schema.required').that.deep.equals(['jobId', 'poll']);
    const get = document.paths['/jobs/{id}']!.get!.responses;
    expect(Object.keys(get).filter((status) => status.startsWith('2'))).to.deep.equal(['200', '206']);
    expect(get['206']).to.have.nested.property('content.application/json.schema.properties.partial.const', true);
  });

  it("with infrastructure.auth.domainPrefix set, the OAuth URLs are the stage's Cognito domain, and nothing is said on stderr about them", () => {
    const dir = smallProject({
      'fw.config.ts': [
        `import { defineApp } from '@framework/core';`,
        `export default defineApp({ base: { name: 'small', region: 'eu-west-1' }, security: { scopes: { 'items:read': 'Read items' }, appClients: { jobs: { scopes: ['items:read'], flows: ['client_credentials'] } } }, envs: { dev: { preset: 'free' }, prod: { preset: 'free' } }, routesDir: 'src/routes', infrastructure: { auth: { domainPrefix: 'small-sign-in' } } });`,
      ].join('\n'),
      'src/routes/items/get.ts': `import { handler } from '@framework/runtime';\nexport const main = handler(async () => [], { scopes: ['items:read'] });\n`,
    });
    dirs.push(dir);
    const result = fwOpenApi(dir, '--stage', 'prod');
    expect(result.status, result.stderr).to.equal(0);
    const document = JSON.parse(result.stdout) as Document;
    expect(document.components.securitySchemes).to.have.nested.property('oauth2.flows.clientCredentials.tokenUrl', 'https://small-sign-in.auth.eu-west-1.amazoncognito.com/oauth2/token');
    expect(document.paths['/items']!.get!.security).to.deep.equal([{ oauth2: ['small/items:read'] }]);
    expect(result.stderr).to.not.include("fw dev's issuer");
  });

  it('refuses a bad --auth-url with FW_ERR_OPENAPI_BAD_ARGUMENT, and a route that does not compile with FW_ERR_OPENAPI_ROUTE_LOAD naming the file', () => {
    const dir = smallProject({ 'src/routes/items/get.ts': `export const main = (;\n` });
    dirs.push(dir);
    const bad = fwOpenApi(dir, '--auth-url', 'ftp://x');
    expect(bad.status).to.equal(1);
    expect(bad.stderr).to.include('--auth-url ftp://x: expected an http(s) URL');
    const broken = fwOpenApi(dir);
    expect(broken.status).to.equal(1);
    expect(broken.stderr).to.include('src/routes/items/get.ts').and.include('do not compile');
  });
});
