/**
 * Row-level security overhead: the example app's GET /tasks handler with tenancy on (the route as shipped: the tenant
 * from the token claim, every statement in a transaction that starts with SET LOCAL ROLE + set_config, the policy
 * on the table) vs off (the same handler without the tenancy middleware, no settings provider, the same table) on
 * native PostgreSQL, in the same run. Invoked in process with a Lambda event as the HTTP API's JWT authorizer passes
 * it. Blocks of both alternate so drift on a shared machine hits both; the figure is the median of the ratios of
 * adjacent blocks (goal: at most 1.15x).
 *
 * Run: npx projen bench:tenancy   (needs the PostgreSQL server binaries)
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { databaseEnv } from '@framework/core/names';
import { closeDatabases, getDatabase } from '@framework/data';
import { migrate } from '@framework/data/migrations';
import { disableRowLevelSecurity, enableRowLevelSecurity } from '@framework-pro/tenancy';
import { handler, setRootLogger, createLogger } from '@framework/runtime';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import pg from 'pg';
import { startNative } from '../data/server.js';

const APP = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'examples', 'tasks-api');
const ROUNDS = 40;
const PER_BLOCK = 100;
const TASKS_PER_USER = 20;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

function event(tenant: string): APIGatewayProxyEventV2 {
  const claims = { sub: 'ada', scope: 'tasks:read', token_use: 'access', client_id: 'web', 'custom:tenant_id': tenant };
  return {
    version: '2.0',
    routeKey: 'GET /tasks',
    rawPath: '/tasks',
    rawQueryString: '',
    headers: { host: 'bench.local' },
    requestContext: {
      accountId: '123456789012', apiId: 'bench', domainName: 'bench.local', domainPrefix: 'bench',
      http: { method: 'GET', path: '/tasks', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      requestId: 'bench', routeKey: 'GET /tasks', stage: '$default', time: '', timeEpoch: 0,
      authorizer: { jwt: { claims, scopes: null } },
    },
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
}

const context = { getRemainingTimeInMillis: () => 30_000, awsRequestId: 'bench', functionName: 'bench' } as unknown as Context;

async function main(): Promise<void> {
  const server = await startNative();
  if (!server) {
    console.log('skipped: the PostgreSQL server binaries (initdb, pg_ctl) are not installed');
    return;
  }
  setRootLogger(createLogger({ level: 'error' }));
  const vars = databaseEnv('main');
  Object.assign(process.env, { [vars.host]: '127.0.0.1', [vars.port]: String(server.port), [vars.name]: 'postgres', [vars.secretArn]: 'local' });
  const owner = new pg.Pool({ host: '127.0.0.1', port: server.port, database: 'postgres', user: 'postgres', max: 1 });
  try {
    // The example's own migrations (tasks, then tenancy: the role, the column, FORCE RLS, the policy), as its owner.
    disableRowLevelSecurity();
    await migrate(getDatabase('main'), { dir: path.join(APP, 'migrations') });
    for (const tenant of ['acme', 'globex']) {
      await owner.query(`INSERT INTO tasks (owner, title, tenant_id) SELECT 'ada', 't' || g, $1 FROM generate_series(1, ${TASKS_PER_USER}) g`, [tenant]);
      await owner.query(`INSERT INTO tasks (owner, title, tenant_id) SELECT 'u' || (g % 10), 't' || g, $1 FROM generate_series(1, 500) g`, [tenant]);
    }
    await owner.query('ANALYZE tasks');

    // On: the route exactly as the example ships it (importing it registers the settings provider).
    const { main: tenantRoute } = (await import(path.join(APP, 'src/routes/tasks/get.ts'))) as { main: (e: APIGatewayProxyEventV2, c: Context) => Promise<{ statusCode: number; body: string }> };
    // Off: the same handler and query without the tenancy middleware, and no provider (statements run as they did).
    const { listTasks } = (await import(path.join(APP, 'src/lib/tasks.ts'))) as typeof import('../../examples/tasks-api/src/lib/tasks.js');
    const { taskFilter } = (await import(path.join(APP, 'src/lib/task-schemas.ts'))) as typeof import('../../examples/tasks-api/src/lib/task-schemas.js');
    const plainRoute = handler({ scopes: ['tasks:read'], query: taskFilter, fn: async (_b, ctx, service) => ({ tasks: await listTasks(service.db, ctx.auth.subject, ctx.input.query.status) }) });

    const acme = event('acme');
    const check = async (route: typeof tenantRoute, expected: number) => {
      const result = await route(acme, context);
      const count = (JSON.parse(result.body) as { tasks: unknown[] }).tasks.length;
      if (result.statusCode !== 200 || count !== expected) throw new Error(`GET /tasks answered ${result.statusCode} with ${count} tasks, expected ${expected}: ${result.body.slice(0, 200)}`);
    };
    enableRowLevelSecurity();
    await check(tenantRoute, TASKS_PER_USER);
    disableRowLevelSecurity();
    // As the owner without RLS settings, the table's superuser owner sees both tenants' tasks of the user.
    await check(plainRoute as unknown as typeof tenantRoute, TASKS_PER_USER * 2);

    const block = async (on: boolean): Promise<number> => {
      if (on) enableRowLevelSecurity();
      else disableRowLevelSecurity();
      const route = (on ? tenantRoute : plainRoute) as typeof tenantRoute;
      const start = process.hrtime.bigint();
      for (let i = 0; i < PER_BLOCK; i++) await route(acme, context);
      return Number(process.hrtime.bigint() - start) / 1000 / PER_BLOCK;
    };
    await block(false);
    await block(true);
    const offTimes: number[] = [];
    const onTimes: number[] = [];
    const ratios: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const first = r % 2 === 0;
      const a = await block(first);
      const b = await block(!first);
      const on = first ? a : b;
      const off = first ? b : a;
      onTimes.push(on);
      offTimes.push(off);
      ratios.push(on / off);
    }
    console.log(`server: ${server.label}; ${ROUNDS} rounds x ${PER_BLOCK} sequential GET /tasks per side, ${TASKS_PER_USER} tasks per answer`);
    console.log(`GET /tasks tenancy off: ${median(offTimes).toFixed(0)} us per request (median block)`);
    console.log(`GET /tasks tenancy on (RLS, SET LOCAL per transaction): ${median(onTimes).toFixed(0)} us per request (median block)`);
    console.log(`ratio on/off: ${median(ratios).toFixed(3)}x (goal <= 1.15x)`);
  } finally {
    disableRowLevelSecurity();
    await owner.end();
    await closeDatabases();
    await server.stop();
  }
}

await main();
