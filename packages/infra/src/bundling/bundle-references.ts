/** Every id of a kind (a reference the analysis cannot resolve to literal ids). */
export const ALL = 'all';

/** Ids of one kind of resource a function names, or `all` when one of its references is not a literal. */
export type ReferencedIds = readonly string[] | typeof ALL;

/** The app's resources one function names in its own source files. */
export interface FunctionReferences {
  /** Queue ids it sends to: `service.queues['id']`, `service.queues.id`. */
  readonly queues: ReferencedIds;
  /** Standalone function ids it invokes: `invoke({ function: 'id' })`, `service.invoke({ function: 'id' })`. */
  readonly functions: ReferencedIds;
  /** Bucket ids it uses: `service.storage.bucket('id')`, `service.storage.id`, `service.storage['id']`. */
  readonly buckets: ReferencedIds;
  /** Whether it writes to those buckets (calls a `BUCKET_WRITE_METHODS` method); otherwise read-only. */
  readonly bucketWrites: boolean;
  /** Whether it sends to the WebSocket API's connections: `service.ws.send(`, `.broadcast(`, `.disconnect(`, `.publish(`. */
  readonly wsSends: boolean;
  /**
   * Whether it reads or writes the WebSocket connection registry: `ws.subscribe(`, `.unsubscribe(`, `.publish(`,
   * `.connections(`, and `.send(` / `.broadcast(` (a 410 Gone removes the connection).
   */
  readonly wsRegistry: boolean;
  /** Whether it publishes to a topic (`ws.publish(`): a large topic goes through the framework's fan-out queue. */
  readonly wsPublishes: boolean;
  /**
   * Whether its code may reach `service.http` (`@framework/integrations`): the word `http` anywhere but in a URL
   * (`service.http`, a destructured `http`, a string that could index it). `false` leaves the HTTP client out of the
   * bundle (`serviceBundleDefines`); no grant depends on it.
   * @default - unknown: the client is kept
   */
  readonly httpClient?: boolean;
  /**
   * Whether it administers the user pool through `service.auth` (`auth.createUser(`, `auth.machineToken(`, ...; any
   * `service.auth` or destructured `auth` followed by one of `AUTH_SERVICE_METHODS`), or imports Cognito's SDK client.
   * @default false
   */
  readonly authAdmin?: boolean;
  /**
   * Whether it creates API keys: a project file imports `@framework/integrations` and calls `createApiKeys(` (in the
   * function's tree-shaken project code). Such a function reads the app's API-key pepper secret.
   * @default false
   */
  readonly apiKeys?: boolean;
  /**
   * Bedrock models it calls through `@framework-pro/ai`: the `model` of each `{ provider: 'bedrock', model: '<id>' }`
   * in its code (a model id or an inference profile id), or `all` when one is not a literal.
   * @default - none (the function calls no Bedrock model)
   */
  readonly bedrockModels?: ReferencedIds;
  /**
   * Whether it uses the integrations vault: a project file imports `@framework/integrations` and calls
   * `createOAuthConnections(` (connection tokens) or `createWebhooks(` (endpoints' signing secrets). Such a function
   * encrypts and decrypts with the app's vault KMS key.
   * @default false
   */
  readonly vault?: boolean;
}

/** The methods of `service.auth` (`@framework/auth`): each calls Cognito's admin API or reads an app client. */
export const AUTH_SERVICE_METHODS: readonly string[] = ['createUser', 'getUser', 'listUsers', 'confirmUser', 'disableUser', 'enableUser', 'deleteUser', 'setRoles', 'setTenant', 'signOutEverywhere', 'machineToken'];

/** Methods of `BucketClient` that create, replace or delete objects (a presigned upload is signed with write rights). */
export const BUCKET_WRITE_METHODS: readonly string[] = ['presignUpload', 'put', 'delete'];

/**
 * AWS SDK clients a project file may import directly, and the kind they reach: such a function gets the kind's
 * grant on every resource of the app (the analysis cannot see which one).
 */
const DIRECT_CLIENTS: Readonly<Record<'queues' | 'functions' | 'buckets', readonly string[]>> = {
  queues: ['@aws-sdk/client-sqs'],
  functions: ['@aws-sdk/client-lambda'],
  buckets: ['@aws-sdk/client-s3', '@aws-sdk/s3-request-presigner', '@aws-sdk/s3-presigned-post', '@aws-sdk/lib-storage'],
};

const STRING = String.raw`(?:'([^'\\\n]+)'|"([^"\\\n]+)"|\x60([^\x60\\$\n]+)\x60)`;
const IDENT = String.raw`([A-Za-z_$][\w$]*)`;
const OPT = String.raw`\s*(?:\?\.|\.)\s*`;

/** `queues[<x>]` or `queues.<x>`: a literal gives the id; anything else inside brackets is dynamic. */
const QUEUE_REFERENCE = new RegExp(String.raw`\bqueues\s*(?:\?\.\s*)?(?:\[\s*(?:${STRING}\s*\]|([^\]\s]))|\.\s*${IDENT})`, 'g');
/** `invoke(` or `invoke<T>(`; the first argument decides. */
const INVOKE_CALL = /\binvoke\s*(?:<[^()]*>)?\s*\(\s*/g;
const INVOKE_TARGET = new RegExp(String.raw`^\{\s*function\s*:\s*${STRING}\s*[,}]`);
/** `storage.bucket(<x>)`, `storage[<x>]` or `storage.<x>`. */
const BUCKET_REFERENCE = new RegExp(String.raw`\bstorage${OPT}bucket\s*\(\s*(?:${STRING}\s*\)|([^)\s]))|\bstorage\s*(?:\?\.\s*)?(?:\[\s*(?:${STRING}\s*\]|([^\]\s]))|\.\s*${IDENT})`, 'g');
/** `ws.send(`, `ws.broadcast(`, `ws.disconnect(`, `ws.publish(` (`service.ws`, or `ws` destructured from it). */
const WS_SEND = new RegExp(String.raw`\bws${OPT}(?:send|broadcast|disconnect|publish)\s*\(`);
/** The `service.ws` methods that read or write the connection registry. */
const WS_REGISTRY = new RegExp(String.raw`\bws${OPT}(?:send|broadcast|publish|subscribe|unsubscribe|connections)\s*\(`);
const WS_PUBLISH = new RegExp(String.raw`\bws${OPT}publish\s*\(`);
/** `auth.createUser(`, `auth?.setRoles(`, ... (`service.auth`, or `auth` destructured from it); `service.auth` passed on. */
const AUTH_ADMIN = new RegExp(String.raw`\bauth${OPT}(?:${AUTH_SERVICE_METHODS.join('|')})\s*\(|\bservice${OPT}auth\b(?!${OPT}[A-Za-z_$])`);
/** `createApiKeys(` of `@framework/integrations` (imported under its own name; an alias is not followed). */
const CREATE_API_KEYS = /\bcreateApiKeys\s*\(/;
/** `createOAuthConnections(` or `createWebhooks(` of `@framework/integrations`: both keep secrets in the vault. */
const USES_VAULT = /\b(?:createOAuthConnections|createWebhooks)\s*\(/;
const INTEGRATIONS_PACKAGE = '@framework/integrations';
/** A model configuration of `@framework-pro/ai` naming Bedrock: an object literal with `provider: 'bedrock'`. */
const BEDROCK_CONFIG = /\{[^{}]*\bprovider\s*:\s*(['"`])bedrock\1[^{}]*\}/g;
const MODEL_PROPERTY = new RegExp(String.raw`\bmodel\s*:\s*(?:${STRING}|([^,}\s]))`);
const AI_PACKAGE = '@framework-pro/ai';
/** Cognito's SDK client, imported directly by a project file. */
const AUTH_DIRECT_CLIENT = '@aws-sdk/client-cognito-identity-provider';
/** The WebSocket API's management client, imported directly by a project file. */
const WS_DIRECT_CLIENT = '@aws-sdk/client-apigatewaymanagementapi';
/**
 * `@framework-pro/chat`: its WebSocket route and HTTP handlers push to rooms (`ws.publish`), subscribe and unsubscribe
 * connections (join, a member's removal) and look connections up, inside the package, where this analysis does not
 * read. A function whose project code imports it gets the WebSocket grants, as it needs them under fw dev.
 */
const CHAT_PACKAGE = '@framework-pro/chat';
/** The word `http` other than as a URL's scheme (`'http://...'`; `https` is another word): `service.http` may be reached. */
const HTTP_CLIENT = /\bhttp\b(?!:\/\/)/;
const BUCKET_WRITE = new RegExp(String.raw`\.\s*(?:${BUCKET_WRITE_METHODS.join('|')})\s*\(`);

/** The literal of a match's string groups, if any. */
const literalOf = (groups: readonly (string | undefined)[]): string | undefined => groups.find((g) => g !== undefined);

/** Adds the ids a pattern finds; returns false when one reference is dynamic. */
function collect(found: Set<string>, text: string, pattern: RegExp, read: (m: RegExpMatchArray) => string | undefined | null): boolean {
  for (const match of text.matchAll(pattern)) {
    const id = read(match);
    if (id === null) continue;
    if (id === undefined) return false;
    found.add(id);
  }
  return true;
}

/**
 * What a function names, read from the project's own code in its bundle (`FunctionBundle.projectCode`: tree-shaken,
 * without comments; the framework's packages are left out, their generic code names no id). Literal ids give exact
 * grants; a reference built at run time (`service.queues[name]`) or a direct AWS SDK client import grants every
 * resource of that kind, so nothing that works in `fw dev` is denied deployed.
 */
export function referencesOf(projectCode: string, projectPackages: ReadonlySet<string> = new Set()): FunctionReferences {
  const queues = new Set<string>();
  const functions = new Set<string>();
  const buckets = new Set<string>();
  let allQueues = DIRECT_CLIENTS.queues.some((p) => projectPackages.has(p));
  let allFunctions = DIRECT_CLIENTS.functions.some((p) => projectPackages.has(p));
  let allBuckets = DIRECT_CLIENTS.buckets.some((p) => projectPackages.has(p));
  let bucketWrites = allBuckets;
  {
    const text = projectCode;
    // Queue references: a literal, a property, or (anything else in brackets) dynamic.
    if (!collect(queues, text, QUEUE_REFERENCE, (m) => literalOf([m[1], m[2], m[3], m[5]]) ?? (m[4] !== undefined ? undefined : null))) allQueues = true;
    if (!collect(functions, text, INVOKE_CALL, (m) => {
      const rest = text.slice(m.index! + m[0].length, m.index! + m[0].length + 300);
      // `function invoke(` and `import { invoke }` are not calls; a declaration site has no argument object either.
      if (/\bfunction\s+$/.test(text.slice(Math.max(0, m.index! - 12), m.index!))) return null;
      const target = INVOKE_TARGET.exec(rest);
      return target ? literalOf([target[1], target[2], target[3]]) : undefined;
    })) allFunctions = true;
    if (!collect(buckets, text, BUCKET_REFERENCE, (m) => literalOf([m[1], m[2], m[3], m[5], m[6], m[7], m[9]]) ?? (m[4] !== undefined || m[8] !== undefined ? undefined : null))) allBuckets = true;
    if (BUCKET_WRITE.test(text)) bucketWrites = true;
  }
  buckets.delete('bucket');
  const bedrockModels = projectPackages.has(AI_PACKAGE) ? bedrockModelsOf(projectCode) : undefined;
  const hasBuckets = allBuckets || buckets.size > 0;
  return {
    queues: allQueues ? ALL : [...queues].sort(),
    functions: allFunctions ? ALL : [...functions].sort(),
    buckets: allBuckets ? ALL : [...buckets].sort(),
    bucketWrites: hasBuckets && bucketWrites,
    wsSends: projectPackages.has(WS_DIRECT_CLIENT) || projectPackages.has(CHAT_PACKAGE) || WS_SEND.test(projectCode),
    wsRegistry: projectPackages.has(CHAT_PACKAGE) || WS_REGISTRY.test(projectCode),
    wsPublishes: projectPackages.has(CHAT_PACKAGE) || WS_PUBLISH.test(projectCode),
    httpClient: HTTP_CLIENT.test(projectCode),
    // Only when true: a function that does not call service.auth reads as before.
    ...(projectPackages.has(AUTH_DIRECT_CLIENT) || AUTH_ADMIN.test(projectCode) ? { authAdmin: true } : {}),
    ...(projectPackages.has(INTEGRATIONS_PACKAGE) && CREATE_API_KEYS.test(projectCode) ? { apiKeys: true } : {}),
    ...(bedrockModels ? { bedrockModels } : {}),
    ...(projectPackages.has(INTEGRATIONS_PACKAGE) && USES_VAULT.test(projectCode) ? { vault: true } : {}),
  };
}

/** The Bedrock model ids of the code's `{ provider: 'bedrock', model }` literals; `all` when a model is computed. */
function bedrockModelsOf(text: string): ReferencedIds | undefined {
  const models = new Set<string>();
  for (const config of text.matchAll(BEDROCK_CONFIG)) {
    const model = MODEL_PROPERTY.exec(config[0]);
    const id = model ? literalOf([model[1], model[2], model[3]]) : undefined;
    // No literal id (a variable, an environment value, a shorthand property): any model, as fw dev would allow.
    if (id === undefined) return ALL;
    models.add(id);
  }
  return models.size > 0 ? [...models].sort() : undefined;
}

/** Whether `ids` names anything. */
export const referencesAny = (ids: ReferencedIds): boolean => ids === ALL || ids.length > 0;

/** The ids of `available` that `ids` names (all of them for `all`). */
export function selectReferenced<T>(available: ReadonlyMap<string, T>, ids: ReferencedIds): Array<[string, T]> {
  return [...available].filter(([id]) => ids === ALL || ids.includes(id));
}
