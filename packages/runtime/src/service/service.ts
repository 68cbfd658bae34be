// Single constants, not `ENV`: a bundle then carries these three names, not the whole table (see core).
import { PROJECT_VAR, REGION_VAR, STAGE_VAR } from '@framework/core/names';
import { RuntimeError } from '../errors.js';
import { invoke } from '../invoke/invoke.js';
import { queueClient, type QueueClient } from '../queues/queue-client.js';
import type { QueueId } from '../register/register.js';
import { wsClient, type WsClient } from '../ws/ws-client.js';

/** A client per queue id: the app's ids once `.fw/types` is generated (see `Register`), any string before. */
type QueueClients = { readonly [Id in QueueId]: QueueClient };

/**
 * The queues of the app by id: `service.queues['email-outbox'].send({ to })`. Any id works at run time (the URL comes
 * from `FW_QUEUE_<ID>_URL`); the generated `.fw/types/app.d.ts` lists the app's ids, so a missing one is a compile
 * error.
 */
export interface Queues extends QueueClients {}

/**
 * The third argument of every handler: the app's identity and clients. Other packages add their own clients by
 * declaration merging plus `registerServiceExtension` (see the README, "Service extension point"):
 *
 * ```ts
 * declare module '@framework/runtime' {
 *   interface Service { readonly db: Database }
 * }
 * registerServiceExtension('db', (service) => createDatabase(service));
 * ```
 */
export interface Service {
  /** Project name (`FW_PROJECT`). */
  readonly project: string;
  /** Stage (`FW_STAGE`): `dev`, `prod`, ... */
  readonly stage: string;
  /** Region (`FW_REGION`, else `AWS_REGION`). */
  readonly region: string | undefined;
  /** The function's environment (intent outputs included; read their names from `@framework/core/names`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** `invoke` bound to this app and stage. */
  readonly invoke: typeof invoke;
  /** Queue clients by queue id. */
  readonly queues: Queues;
  /** The WebSocket API's connections (`src/ws/`): `send`, `broadcast`, `disconnect`, topics (`subscribe`, `publish`), `connections`. */
  readonly ws: WsClient;
}

/** The properties the runtime itself provides; extensions may not replace them. */
const BUILT_IN = ['project', 'stage', 'region', 'env', 'invoke', 'queues', 'ws'] as const;
type BuiltInKey = (typeof BUILT_IN)[number];

/** A property other packages add to the service. */
export type ServiceExtensionKey = Exclude<keyof Service, BuiltInKey>;

/** Builds an extension's value, once per container (on first access), from the service. */
export type ServiceExtensionFactory<K extends ServiceExtensionKey> = (service: Service) => Service[K];

export interface RegisterServiceExtensionOptions {
  /**
   * Replace an extension registered under the same name by a different factory (tests, custom clients).
   * @default false
   */
  readonly replace?: boolean;
}

/**
 * Every service object inherits from this prototype, so an extension registered after the object was created (import
 * order) is still visible on it.
 */
const serviceProto: object = {};
const factories = new Map<string, unknown>();

/**
 * Adds `service.<name>`. The factory runs on first access and its value is kept for the container's lifetime, so an
 * unused client costs nothing and a used one is created once (connection reuse across invocations). Registering the
 * same factory twice is a no-op (a module evaluated twice); a different factory under a taken name throws unless
 * `replace` is set.
 */
export function registerServiceExtension<K extends ServiceExtensionKey>(
  name: K,
  factory: ServiceExtensionFactory<K>,
  options: RegisterServiceExtensionOptions = {},
): void {
  const key = name as string;
  if ((BUILT_IN as readonly string[]).includes(key)) {
    throw new RuntimeError('FW_ERR_SERVICE_EXTENSION', `service.${key} is built into the runtime and cannot be replaced by an extension`);
  }
  const existing = factories.get(key);
  if (existing === factory) return;
  if (existing !== undefined && !options.replace) {
    throw new RuntimeError('FW_ERR_SERVICE_EXTENSION', `service.${key} is already registered by another package; pass { replace: true } to override it on purpose`);
  }
  factories.set(key, factory);
  if (currentService && Object.prototype.hasOwnProperty.call(currentService, key)) {
    delete (currentService as unknown as Record<string, unknown>)[key];
  }
  Object.defineProperty(serviceProto, key, {
    configurable: true,
    enumerable: false,
    get(this: Service) {
      let value: unknown;
      try {
        value = factory(this);
      } catch (error) {
        throw new RuntimeError('FW_ERR_SERVICE_EXTENSION', `Creating service.${key} failed: ${(error as Error).message}`, { cause: error });
      }
      Object.defineProperty(this, key, { value, configurable: true, enumerable: false, writable: false });
      return value;
    },
  });
}

/** Names of the registered extensions (diagnostics, tests). */
export function serviceExtensionNames(): string[] {
  return [...factories.keys()];
}

/** `service.queues`: a client per queue id, created on first access. */
function queuesProxy(): Queues {
  const queues = new Map<string, QueueClient>();
  return new Proxy({} as Queues, {
    get(_target, id) {
      if (typeof id !== 'string') return undefined;
      let client = queues.get(id);
      if (!client) queues.set(id, (client = queueClient(id)));
      return client;
    },
  });
}

/** An enumerable getter (not configurable): a built-in that reads the environment at access time. */
function shown(get: () => unknown): PropertyDescriptor {
  return { enumerable: true, get };
}

/** An enumerable value (neither writable nor configurable): a built-in client. */
function shownValue(value: unknown): PropertyDescriptor {
  return { enumerable: true, value };
}

function createService(): Service {
  const service = Object.create(serviceProto) as Service;
  // Identity is read from the environment at access time, so tests and the dev server may change it between calls.
  Object.defineProperties(service, {
    project: shown(() => process.env[PROJECT_VAR] ?? ''),
    stage: shown(() => process.env[STAGE_VAR] ?? ''),
    region: shown(() => process.env[REGION_VAR] ?? process.env['AWS_REGION']),
    env: shown(() => process.env),
    invoke: shownValue(globalThis.__fwOmitServiceInvoke ? () => leftOut('invoke') : invoke),
    queues: shownValue(globalThis.__fwOmitServiceQueues ? new Proxy({}, { get: (_t, id) => (typeof id === 'string' ? leftOut('queues') : undefined) }) : queuesProxy()),
    ws: shownValue(globalThis.__fwOmitServiceWs ? leftOutWs() : wsClient()),
  });
  return service;
}

/**
 * Bundles built by `@framework/infra` replace these expressions (esbuild `define`, see `serviceBundleDefines` there)
 * with `true` for a function whose own code names no queue / invokes no function / sends to no WebSocket, so
 * dead-code elimination leaves the clients (and what they import) out of its bundle. Unbundled code (`fw dev`, tests)
 * never sets them: the full service. The expressions, for the bundler: `SERVICE_CLIENT_OMIT_DEFINES`.
 */
export const SERVICE_CLIENT_OMIT_DEFINES = {
  queues: 'globalThis.__fwOmitServiceQueues',
  invoke: 'globalThis.__fwOmitServiceInvoke',
  ws: 'globalThis.__fwOmitServiceWs',
  /**
   * `service.http` of `@framework/integrations` (an extension, registered when that package is imported): left out,
   * the HTTP client and undici (about 520 KB) stay out of a function that imports the package for something else
   * (webhooks, API keys) and never calls `service.http`.
   */
  http: 'globalThis.__fwOmitServiceHttp',
} as const;

declare global {
  // eslint-disable-next-line no-var
  var __fwOmitServiceQueues: boolean | undefined;
  // eslint-disable-next-line no-var
  var __fwOmitServiceInvoke: boolean | undefined;
  // eslint-disable-next-line no-var
  var __fwOmitServiceWs: boolean | undefined;
  // eslint-disable-next-line no-var
  var __fwOmitServiceHttp: boolean | undefined;
}

/** `service.ws` left out of a bundle whose code sends to no WebSocket connection: each call says why. */
function leftOutWs(): WsClient {
  const fail = (): never => leftOut('ws');
  return { send: fail, broadcast: fail, disconnect: fail, subscribe: fail, unsubscribe: fail, publish: fail, connections: fail };
}

/** The call that keeps each client in a bundle (what `@framework/infra`'s analysis looks for). */
const KEPT_BY = { queues: "service.queues['id']", invoke: "invoke({ function: 'id' })", ws: 'service.ws.send( (or broadcast, disconnect, subscribe, unsubscribe, publish, connections)' } as const;

/**
 * What a left-out client answers: an error naming why it is missing and the fix, not `undefined is not a function`.
 * Short on purpose: every bundle without the clients carries it (the README's error table has the long form).
 */
function leftOut(name: keyof typeof KEPT_BY): never {
  throw new RuntimeError('FW_ERR_SERVICE_LEFT_OUT', `service.${name} is not in this function's bundle: its own code never calls ${KEPT_BY[name]}. Write that call in the function's own code (an id computed at run time counts), then deploy again.`);
}

let currentService: Service | undefined;

/** The service object of this container (what handlers receive as their third argument). */
export function getService(): Service {
  return (currentService ??= createService());
}

/** Drop the container's service object and its extension values (tests). Registrations stay. */
export function resetService(): void {
  currentService = undefined;
}
