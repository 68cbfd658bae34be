import { NamingError } from '../errors.js';
import { fitName, shortHash } from './fit-name.js';
import { NAME_LIMITS } from './limits.js';

/**
 * The one place that computes deployed unit names. The dev server, the CDK constructs and the runtime's `invoke`
 * all call these functions; nothing else in the repository builds a name.
 *
 * | source                      | unit                                   |
 * |-----------------------------|----------------------------------------|
 * | `src/functions/<a/b>.ts`    | function `{project}-{stage}-fn-a-b`     |
 * | `src/queues/<id>.ts`        | queue `{project}-{stage}-<id>`, function `{project}-{stage}-queue-<id>`, DLQ `{project}-{stage}-<id>-dlq` |
 * | `src/crons/<id>.ts`         | function and rule `{project}-{stage}-cron-<id>` |
 * | `src/routes/<p>/<m>.ts`     | function `{project}-{stage}-route-<m>-<p with / as ->` |
 * | `src/ws/<route>.ts`         | function `{project}-{stage}-ws-<route without $>`, API `{project}-{stage}-ws` |
 */

const NAME_CHARS = /^[A-Za-z0-9_-]+$/;

function prefix(project: string, stage: string): string {
  if (!NAME_CHARS.test(project) || !NAME_CHARS.test(stage)) {
    throw new NamingError(`project ${JSON.stringify(project)} and stage ${JSON.stringify(stage)} must be letters, digits, "-" or "_"`);
  }
  return `${project}-${stage}`;
}

function checkId(kind: string, id: string, allowSlash = false): void {
  const ok = allowSlash ? id.split('/').every((s) => NAME_CHARS.test(s)) : NAME_CHARS.test(id);
  if (!ok) throw new NamingError(`${kind} id ${JSON.stringify(id)} must be letters, digits, "-" or "_"${allowSlash ? ' in "/"-separated segments' : ''}`);
}

/** `src/functions/reports/daily.ts` (id `reports/daily`) → `{project}-{stage}-fn-reports-daily`. */
export function standaloneFunctionName(project: string, stage: string, id: string): string {
  checkId('function', id, true);
  return fitName(`${prefix(project, stage)}-fn-${id.split('/').join('-')}`, NAME_LIMITS.lambdaFunction);
}

/** Queue `{project}-{stage}-<id>`. */
export function queueName(project: string, stage: string, id: string): string {
  checkId('queue', id);
  return fitName(`${prefix(project, stage)}-${id}`, NAME_LIMITS.sqsQueue);
}

/** Dead-letter queue `{project}-{stage}-<id>-dlq` (our choice: the queue's name plus a suffix, so the two sort together in the console). */
export function deadLetterQueueName(project: string, stage: string, id: string): string {
  checkId('queue', id);
  return fitName(`${prefix(project, stage)}-${id}-dlq`, NAME_LIMITS.sqsQueue);
}

/** Consumer function `{project}-{stage}-queue-<id>`. */
export function queueFunctionName(project: string, stage: string, id: string): string {
  checkId('queue', id);
  return fitName(`${prefix(project, stage)}-queue-${id}`, NAME_LIMITS.lambdaFunction);
}

/** WebSocket route function `{project}-{stage}-ws-<route>`: `$connect` → `acme-dev-ws-connect`, `chat` → `acme-dev-ws-chat`. */
export function wsFunctionName(project: string, stage: string, routeKey: string): string {
  const route = routeKey.startsWith('$') ? routeKey.slice(1) : routeKey;
  checkId('WebSocket route', route);
  return fitName(`${prefix(project, stage)}-ws-${route}`, NAME_LIMITS.lambdaFunction);
}

/** The WebSocket API of a stage: `{project}-{stage}-ws`. */
export function wsApiName(project: string, stage: string): string {
  return fitName(`${prefix(project, stage)}-ws`, NAME_LIMITS.lambdaFunction);
}

/** Cron function `{project}-{stage}-cron-<id>`. */
export function cronFunctionName(project: string, stage: string, id: string): string {
  checkId('schedule', id);
  return fitName(`${prefix(project, stage)}-cron-${id}`, NAME_LIMITS.lambdaFunction);
}

/** Schedule rule `{project}-{stage}-cron-<id>`: the same text as the function, under the rule's own limit. */
export function cronRuleName(project: string, stage: string, id: string): string {
  checkId('schedule', id);
  return fitName(`${prefix(project, stage)}-cron-${id}`, NAME_LIMITS.scheduleRule);
}

/**
 * Route function `{project}-{stage}-route-<method>-<path>` (our choice): `PUT /tasks/{id}` → `acme-dev-route-put-tasks-id`,
 * `GET /` → `acme-dev-route-get-root`. Parameters lose their braces and `+`; other characters a function name cannot
 * hold become `-`. Because that mapping can send two paths to one name (`/tasks/{id}` and `/tasks/id`), the app
 * model passes the colliding ones through `disambiguatedRouteFunctionName`.
 */
export function routeFunctionName(project: string, stage: string, method: string, path: string): string {
  return fitName(`${prefix(project, stage)}-route-${method.toLowerCase()}-${routeSlug(path)}`, NAME_LIMITS.lambdaFunction);
}

/** The route name with a hash of its route key appended: unique even when two paths share a slug. */
export function disambiguatedRouteFunctionName(project: string, stage: string, method: string, path: string): string {
  const base = `${prefix(project, stage)}-route-${method.toLowerCase()}-${routeSlug(path)}`;
  const suffix = `-${shortHash(`${method.toUpperCase()} ${path}`)}`;
  return fitName(base, NAME_LIMITS.lambdaFunction - suffix.length) + suffix;
}

function routeSlug(path: string): string {
  const slug = path
    .split('/')
    .filter(Boolean)
    .map((segment) => segment.replace(/[{}+]/g, '').replace(/[^A-Za-z0-9_-]/g, '-'))
    .join('-')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '');
  return slug || 'root';
}

/** The stack of a stage: `{project}-{stage}`. */
export function stackName(project: string, stage: string): string {
  return fitName(prefix(project, stage), NAME_LIMITS.stack);
}

/** The idempotency and saga table of a stage: `{project}-{stage}-idempotency`. */
export function idempotencyTableName(project: string, stage: string): string {
  return fitName(`${prefix(project, stage)}-idempotency`, NAME_LIMITS.dynamoTable);
}

/** The table `createDynamoDBIdempotencyStore` uses when it is given none and the environment names none. */
export const DEFAULT_IDEMPOTENCY_TABLE = 'framework-idempotency';

/**
 * ElastiCache Serverless cache `{project}-{stage}-<id>` (40 characters at most). ElastiCache accepts only lowercase
 * letters, digits and single hyphens, so `_` becomes `-` and runs of `-` collapse; ids that would meet this way
 * (`a_b`, `a-b`) are already rejected by `defineApp` because they share a variable token.
 */
export function cacheName(project: string, stage: string, id: string): string {
  checkId('cache', id);
  const name = `${prefix(project, stage)}-${id}`.toLowerCase().replace(/[_-]+/g, '-').replace(/-$/, '');
  return fitName(name, NAME_LIMITS.cache);
}

/** Cognito user pool `{project}-{stage}-users`. */
export function userPoolName(project: string, stage: string): string {
  return fitName(`${prefix(project, stage)}-users`, NAME_LIMITS.userPool);
}

/** Characters the deployed stack appends to a default Cognito domain prefix: `-` and 8 characters unique to it. */
export const DOMAIN_PREFIX_SUFFIX_LENGTH = 9;

/**
 * The readable part of the default Cognito domain prefix: `{project}-{stage}` in Cognito's syntax (lowercase,
 * `_` as `-`) without the words Cognito refuses (`aws`, `amazon`, `cognito`), short enough for the unique suffix the
 * stack appends (prefixes are global per region across all accounts, so `{project}-{stage}` alone is often taken).
 */
export function authDomainPrefixBase(project: string, stage: string): string {
  const readable = prefix(project, stage)
    .toLowerCase()
    .replace(/_/g, '-')
    .replace(/aws|amazon|cognito/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
  return fitName(readable || 'auth', NAME_LIMITS.cognitoDomainPrefix - DOMAIN_PREFIX_SUFFIX_LENGTH).replace(/-+$/, '');
}

/** The Cognito pre token generation trigger that puts role scopes into access tokens: `{project}-{stage}-auth-pre-token`. */
export function preTokenGenerationFunctionName(project: string, stage: string): string {
  return fitName(`${prefix(project, stage)}-auth-pre-token`, NAME_LIMITS.lambdaFunction);
}

/**
 * The WebSocket API's `$connect` Lambda authorizer: `{project}-{stage}-auth-ws-connect` (under `auth-`, not `ws-`,
 * so no handler file of `src/ws/` can take its name).
 */
export function wsConnectAuthorizerFunctionName(project: string, stage: string): string {
  return fitName(`${prefix(project, stage)}-auth-ws-connect`, NAME_LIMITS.lambdaFunction);
}

/**
 * The HTTP API's Lambda authorizer of the routes that accept API keys (`@framework/integrations/api-key-authorizer`):
 * `{project}-{stage}-fw-api-key-authorizer` (under `fw-`, a prefix no handler file produces).
 */
export function apiKeyAuthorizerFunctionName(project: string, stage: string): string {
  return fitName(`${prefix(project, stage)}-fw-api-key-authorizer`, NAME_LIMITS.lambdaFunction);
}

/**
 * The WebSocket connection registry's table: `{project}-{stage}-ws-connections` (connections, their caller and
 * topics; see the runtime's `service.ws.subscribe`).
 */
export function wsRegistryTableName(project: string, stage: string): string {
  return fitName(`${prefix(project, stage)}-ws-connections`, NAME_LIMITS.dynamoTable);
}

/**
 * The framework's own WebSocket function: `{project}-{stage}-fw-ws-registry` (under `fw-`, a prefix no handler file
 * produces). It consumes the fan-out queue and serves `$connect` / `$disconnect` when `src/ws/` has no such file.
 */
export function wsRegistryFunctionName(project: string, stage: string): string {
  return fitName(`${prefix(project, stage)}-fw-ws-registry`, NAME_LIMITS.lambdaFunction);
}

/** The queue large `publish` fan-outs go through: `{project}-{stage}-fw-ws-fanout`. */
export function wsFanoutQueueName(project: string, stage: string): string {
  return fitName(`${prefix(project, stage)}-fw-ws-fanout`, NAME_LIMITS.sqsQueue);
}

/** The function that applies a database's migrations: `{project}-{stage}-migrate-<id>`. */
export function migrationFunctionName(project: string, stage: string, databaseId: string): string {
  checkId('database', databaseId);
  return fitName(`${prefix(project, stage)}-migrate-${databaseId}`, NAME_LIMITS.lambdaFunction);
}
