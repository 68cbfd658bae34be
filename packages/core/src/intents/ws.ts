import type { Codec } from '../config/codec.js';
import { listHandlerFiles, stripExtension } from '../discovery/source-files.js';
import { ENV } from '../environment/variables.js';
import { ConfigError, type ConfigProblem } from '../errors.js';
import { wsApiName, wsConnectAuthorizerFunctionName, wsFanoutQueueName, wsFunctionName, wsRegistryFunctionName, wsRegistryTableName } from '../naming/unit-names.js';
import type { FunctionUnit } from './function-unit.js';
import { outputRef, type CodecKit, type IntentKindModule, type KindValue } from './intent-kind.js';

declare module './function-unit.js' {
  /** `ws`: this kind's functions. */
  interface UnitKinds {
    readonly ws: true;
  }
}

declare module '../handlers/handler-kind.js' {
  /** `ws`: `wsHandler`'s functions (the runtime's `@framework/runtime` `ws/`), one per file of `src/ws/`. */
  interface HandlerKinds {
    readonly ws: true;
  }
}

/**
 * Outputs of the WebSocket API that reach functions: the URL clients connect to, the `@connections` endpoint, the
 * connection registry's table and the fan-out queue's URL.
 */
export const WS_OUTPUTS = ['url', 'managementUrl', 'registryTable', 'fanoutQueueUrl'] as const;

/**
 * How long the registry keeps a connection: API Gateway closes every connection after 2 hours, so a row whose
 * `$disconnect` never ran (a crashed function) expires then (DynamoDB's TTL deletes it; reads skip it before).
 */
export const WS_CONNECTION_TTL_SECONDS = 2 * 60 * 60;

/**
 * `publish` to more connections than this hands them, in batches of `WS_FANOUT_BATCH_SIZE`, to the framework's fan-out
 * queue and returns; at most this many are sent by the caller itself (about 1 s of a function's time at API
 * Gateway's usual `@connections` latency, with the calls concurrent).
 */
export const WS_FANOUT_THRESHOLD = 500;

/** Connections per fan-out message (one SQS message; its data at most 128 KB, base64-encoded, well under 256 KB). */
export const WS_FANOUT_BATCH_SIZE = 200;

/** The app has one WebSocket API; its outputs are those of id `default`. */
export const WS_ID = 'default';

/** Where the handlers of the WebSocket API live, one file per route key. */
export const WS_DIR = 'src/ws';

/** API Gateway's route keys that are not message actions. */
export const WS_SPECIAL_ROUTES = ['$connect', '$disconnect', '$default'] as const;

/** The route selection the WebSocket API uses unless told otherwise: the `action` field of a JSON message. */
export const DEFAULT_ROUTE_SELECTION = '$request.body.action';

/** `$request.body.<field>[.<field>...]`: the only form of route selection expression this framework serves. */
const ROUTE_SELECTION = /^\$request\.body\.([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)$/;

/** Settings of the WebSocket API of `src/ws/` (optional: the files alone make the API). */
export interface WebSocketIntent {
  /**
   * The field of a JSON message that names its route: a message whose field names an action file goes there, any
   * other to `$default`.
   * @default '$request.body.action'
   */
  readonly routeSelectionExpression?: string;
}

/** The codec of `infrastructure.ws` (built from the kit: this module stays free of io-ts at run time). */
export function wsCodec({ c }: CodecKit): Codec<WebSocketIntent> {
  return c.struct<WebSocketIntent>('a WebSocket API intent', {
    routeSelectionExpression: c.optional(c.pattern('a route selection expression "$request.body.<field>" such as "$request.body.action" (a field of the JSON message, dots for nested fields)', ROUTE_SELECTION)),
  });
}

/** A custom route key (`<action>.ts`): what a function name can carry. */
const ACTION = /^[A-Za-z0-9][A-Za-z0-9_-]{0,47}$/;

export interface WsRouteDefinition extends FunctionUnit {
  readonly kind: 'ws';
  /** `$connect`, `$disconnect`, `$default` or the action, e.g. `sendMessage`. */
  readonly routeKey: string;
}

export interface WsDefinition {
  /** `{project}-{stage}-ws`. */
  readonly apiName: string;
  /** `$request.body.<field>`: the field of a JSON message that names its route. */
  readonly routeSelectionExpression: string;
  /**
   * `{project}-{stage}-auth-ws-connect`: the `$connect` Lambda authorizer (`@framework/auth/ws-connect-authorizer`),
   * deployed when `wsConnectIsAuthorized` (a `$connect` and the auth intent).
   */
  readonly connectAuthorizerFunctionName: string;
  /** `{project}-{stage}-ws-connections`: the connection registry's DynamoDB table (deployed with the API). */
  readonly registryTableName: string;
  /**
   * `{project}-{stage}-fw-ws-registry`: the framework's function that consumes the fan-out queue and keeps the
   * registry for `$connect` / `$disconnect` when `src/ws/` has no such file (a handler file keeps it itself).
   */
  readonly registryFunctionName: string;
  /** `{project}-{stage}-fw-ws-fanout`: the queue large `publish` fan-outs go through. */
  readonly fanoutQueueName: string;
  /** One per file of `src/ws/`, `$connect` first, then `$disconnect`, `$default` and the actions by name. */
  readonly routes: readonly WsRouteDefinition[];
}

/**
 * The authorizer context of a connection that sent no token to a `$connect` without scopes: no caller. API Gateway
 * needs a principal, so the deployed authorizer names `anonymous` and marks the context; fw dev gives the same, and
 * the runtime reads it as no `ctx.auth`.
 */
export const WS_ANONYMOUS_CONNECTION: Readonly<Record<string, string>> = { principalId: 'anonymous', fwAnonymous: 'true' };

/**
 * Whether `$connect` runs behind the Lambda authorizer: whenever the API has a `$connect` and the app has the auth
 * intent (a pool to verify tokens against). A token sent at connect is then verified (401 when it does not verify) and
 * its claims are the connection's caller, scopes or not; without a `$connect` or an auth intent API Gateway runs no
 * authorizer, and a token is ignored. Both interpreters ask this, so a handler sees the same `ctx.auth` locally and
 * deployed.
 */
export function wsConnectIsAuthorized(ws: WsDefinition | undefined, auth: object | undefined): boolean {
  return !!ws?.routes.some((r) => r.routeKey === '$connect') && auth !== undefined;
}

/**
 * The field path a route selection expression reads (`$request.body.action` → `['action']`), or undefined when it
 * is not of the form `$request.body.<field>[.<field>...]` (the only form this framework serves).
 */
export function routeSelectionPath(expression: string): string[] | undefined {
  const match = ROUTE_SELECTION.exec(expression);
  return match ? match[1]!.split('.') : undefined;
}

/** `src/ws/$connect.ts`, `$disconnect.ts`, `$default.ts` and `<action>.ts` → route keys (flat folder). */
function discoverWsRoutes(rootDir: string): { routes: { routeKey: string; file: string }[]; problems: ConfigProblem[] } {
  const routes: { routeKey: string; file: string }[] = [];
  const problems: ConfigProblem[] = [];
  for (const relative of listHandlerFiles(`${rootDir}/${WS_DIR}`)) {
    const file = `${WS_DIR}/${relative}`;
    const routeKey = stripExtension(relative);
    if (routeKey.includes('/')) {
      problems.push({ code: 'FW_ERR_BAD_FILE_NAME', path: file, message: `WebSocket handlers live directly in ${WS_DIR}/ (no sub-folders); move it to ${WS_DIR}/${routeKey.split('/').pop()}.ts` });
    } else if (routeKey.startsWith('$') ? !(WS_SPECIAL_ROUTES as readonly string[]).includes(routeKey) : !ACTION.test(routeKey)) {
      problems.push({
        code: 'FW_ERR_BAD_FILE_NAME',
        path: file,
        message: `a WebSocket handler is $connect.ts, $disconnect.ts, $default.ts or <action>.ts with an action of letters, digits, "-" or "_" (at most 48, starting with a letter or digit)`,
      });
    } else if (['connect', 'disconnect', 'default'].includes(routeKey)) {
      // Their function names would be those of `$connect`... (`-ws-connect`): one name, two functions.
      problems.push({ code: 'FW_ERR_BAD_FILE_NAME', path: file, message: `the action "${routeKey}" would share its function name with $${routeKey}.ts; name the action otherwise (e.g. ${routeKey}Room)` });
    } else {
      routes.push({ routeKey, file });
    }
  }
  const order = (key: string) => {
    const special = (WS_SPECIAL_ROUTES as readonly string[]).indexOf(key);
    return special === -1 ? WS_SPECIAL_ROUTES.length : special;
  };
  routes.sort((a, b) => order(a.routeKey) - order(b.routeKey) || (a.routeKey < b.routeKey ? -1 : a.routeKey > b.routeKey ? 1 : 0));
  return { routes, problems };
}

/**
 * `src/ws/`: the WebSocket API (present when the folder holds a handler), one function per route key. Its outputs,
 * `url` (`wss://...`, what clients connect to), `managementUrl` (the `@connections` endpoint functions send
 * through), `registryTable` and `fanoutQueueUrl` reach every function as `FW_WS_URL`, `FW_WS_MANAGEMENT_URL`,
 * `FW_WS_REGISTRY_TABLE` and `FW_WS_FANOUT_QUEUE_URL`.
 */
export const wsKind: IntentKindModule<WebSocketIntent, WsDefinition | undefined, (typeof WS_OUTPUTS)[number], 'ws'> = {
  configKey: 'ws',
  sourceDir: WS_DIR,
  codec: wsCodec,
  outputs: WS_OUTPUTS,
  build: (intent, { project, stage, config, rootDir }) => {
    const { routes, problems } = discoverWsRoutes(rootDir);
    if (intent && routes.length === 0 && problems.length === 0) {
      problems.push({ code: 'FW_ERR_CONFIG_INVALID_VALUE', path: 'infrastructure.ws', message: `configures the WebSocket API, but ${WS_DIR}/ holds no handler; add ${WS_DIR}/$default.ts (or $connect.ts, <action>.ts) or remove infrastructure.ws` });
    }
    if (problems.length) throw new ConfigError(problems);
    if (routes.length === 0) return undefined;
    const defaults = config.settings.functions;
    return {
      apiName: wsApiName(project, stage),
      connectAuthorizerFunctionName: wsConnectAuthorizerFunctionName(project, stage),
      registryTableName: wsRegistryTableName(project, stage),
      registryFunctionName: wsRegistryFunctionName(project, stage),
      fanoutQueueName: wsFanoutQueueName(project, stage),
      routeSelectionExpression: intent?.routeSelectionExpression ?? DEFAULT_ROUTE_SELECTION,
      routes: routes.map(({ routeKey, file }) => ({
        kind: 'ws',
        id: routeKey,
        file,
        routeKey,
        functionName: wsFunctionName(project, stage, routeKey),
        memorySize: defaults.memorySize,
        // The WebSocket API, as the HTTP API, gives up on an integration after 29 seconds.
        timeout: Math.min(defaults.timeout, 29),
        environment: {},
      })),
    };
  },
  environment: (ws) => {
    const env: Record<string, KindValue<(typeof WS_OUTPUTS)[number]>> = {};
    if (!ws) return env;
    env[ENV.wsUrl] = outputRef(WS_ID, 'url');
    env[ENV.wsManagementUrl] = outputRef(WS_ID, 'managementUrl');
    env[ENV.wsRegistryTable] = outputRef(WS_ID, 'registryTable');
    env[ENV.wsFanoutQueueUrl] = outputRef(WS_ID, 'fanoutQueueUrl');
    return env;
  },
  units: (ws) => ws?.routes ?? [],
};

/**
 * The connection registry table's layout, shared by the runtime (which reads and writes it) and infra (which
 * creates it): string keys `pk` (`c#<connectionId>`) and `sk` (`#` for the connection, `t#<topic>` per
 * subscription), a numeric TTL attribute `ttl` (epoch seconds), and the index `members` on `gk` (`u#<subject>` on a
 * connection, `t#<topic>` on a subscription) with sort key `pk`, for the lookups by user and by topic.
 */
export const WS_REGISTRY_TABLE = { partitionKey: 'pk', sortKey: 'sk', ttl: 'ttl', memberIndex: 'members', memberKey: 'gk' } as const;

/**
 * `fw dev` only: the dev server's WebSocket connection registry (connections, topics; in memory: connections end with
 * `fw dev`), a worker service (see `DEV_WORKER_SERVICES_KEY`).
 */
export const DEV_WS_REGISTRY_SERVICE = 'ws-registry';

/**
 * The dev server's WebSocket API: `service.ws` sends and closes through it from a function's thread, the work the
 * deployed function does through the `@connections` management API over HTTPS (which the dev server also serves).
 */
export const DEV_WS_SERVICE = 'ws';

/** One `@connections` operation sent to the dev server's WebSocket API. */
export type DevWsRequest = { readonly op: 'send'; readonly connectionId: string; readonly data: Uint8Array } | { readonly op: 'disconnect'; readonly connectionId: string };

/** Its answer: what the management API would have answered (200, 410 Gone, 413 Payload Too Large). */
export interface DevWsReply {
  readonly result: 'sent' | 'closed' | 'gone' | 'too-large';
}
