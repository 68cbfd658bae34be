import { Aws, CfnOutput, CfnResource, type CfnElement, NestedStack, Stack, Tags, TimeZone, Token, type StackProps } from 'aws-cdk-lib/core';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as iam from 'aws-cdk-lib/aws-iam';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3n from 'aws-cdk-lib/aws-s3-notifications';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import { API_KEY_AUTHORIZER_CACHE_TTL_CONTEXT, AUTH_ID, ENV, IDEMPOTENCY_ID, LICENSE_KEY_CONTEXT, apiKeyAuthorizerCacheTtl, TOKEN_VERIFIER_ENV, WS_ID, schedulerEvent, shortHash, stackName, wsConnectIsAuthorized, type AppDefinition, type FunctionUnit, type OutputIntent, type OutputValues, type RouteDefinition } from '@framework/core';
import { Construct, type IConstruct } from 'constructs';
import { AppAuth, poolHasDomain } from '../auth/app-auth.js';
import { acknowledgeNag, acknowledgeNagFindings, nagResourceRef } from '../checks/nag-suppressions.js';
import { bundleApp, type AppBundle, type BundleOptions } from '../bundling/bundle-app.js';
import { needsOf, type FunctionNeeds } from '../bundling/bundle-usage.js';
import { ALL, referencesOf, selectReferenced, type FunctionReferences } from '../bundling/bundle-references.js';
import { readHandlerInfo, type HandlerInfo } from '../bundling/handler-info.js';
import { preloadSdkClients, sdkClientsToPreload } from '../bundling/sdk-preload.js';
import { AppCache } from '../caches/app-cache.js';
import { AppDatabase } from '../databases/app-database.js';
import { DatabaseMigrations } from '../databases/database-migrations.js';
import { InfraError } from '../errors.js';
import { AppFunction } from '../functions/app-function.js';
import { AppHttpApi } from '../http-api/app-http-api.js';
import { IdempotencyTable } from '../idempotency/idempotency-table.js';
import { ApiKeyAuthorizer } from '../integrations/api-key-authorizer.js';
import { ApiKeysPepper } from '../integrations/api-keys-pepper.js';
import { grantBedrockModels } from '../ai/bedrock-model-grant.js';
import { IntegrationsVaultKey } from '../integrations/integrations-vault-key.js';
import { AppNetwork } from '../network/app-network.js';
import { NotifyChannels } from '../notify/notify-channels.js';
import { GATEWAY_SERVICES, servicesOf, type ServiceUse } from '../network/service-reachability.js';
import { AppQueue } from '../queues/app-queue.js';
import { AppBucket } from '../storage/app-bucket.js';
import { AppWebSocketApi } from '../ws-api/app-ws-api.js';
import { WsConnectAuthorizer } from '../ws-api/ws-connect-authorizer.js';
import { WS_REGISTRY_FUNCTION_TIMEOUT_SECONDS, WsConnectionRegistry } from '../ws-api/ws-connection-registry.js';
import { IntentOutputs } from './intent-outputs.js';
import { DEFAULT_ROUTE_SHARDS, MAX_RESOURCES_PER_STACK, routeShardOf } from './route-shards.js';

// The construct of a kind is the type of the stack's public field of that kind (`caches: Map<string, AppCache>`), so
// the stack exports it with its props: a kind's construct needs no export line or folder index of its own. (The
// kinds that came before this rule keep their folder's index.ts.)
export * from '../caches/app-cache.js';

/** Props of `FrameworkStack`. */
export interface FrameworkStackProps extends StackProps {
  /** The app model of the stage to deploy (`defineApp(...)` or `app.forStage('prod')`). */
  readonly app: AppDefinition;
  /**
   * The functions' bundles.
   * @default - bundled now by `bundleApp(app, bundleOptions)`
   */
  readonly bundle?: AppBundle;
  /** @default - `bundleApp`'s defaults */
  readonly bundleOptions?: BundleOptions;
  /**
   * Each function's declared `handlerInfo`, by function name.
   * @default - read from the bundles by `readHandlerInfo`
   */
  readonly handlerInfo?: ReadonlyMap<string, HandlerInfo | undefined>;
  /**
   * Nested stacks the route functions are spread over (by a hash of the route key). Changing it moves routes.
   * @default 16
   */
  readonly routeShards?: number;
  /**
   * Create the idempotency / saga table.
   * @default - when a handler declares idempotency or a function bundles the DynamoDB client
   */
  readonly idempotencyTable?: boolean;
  /**
   * Identifier of the Cognito resource server; access tokens carry scopes as `<identifier>/<scope>`.
   * @default - the project name
   */
  readonly resourceServerIdentifier?: string;
  /**
   * Give functions with identical grants (same databases, buckets and read/write, queues, invoke targets, table, VPC
   * placement) one shared execution role instead of one role each. An account holds 1,000 roles by default (a
   * quota that can be raised); an app of 129 functions otherwise needs ~130 roles per stage. Sharing grants nothing
   * beyond what each function gets alone. Also read from the CDK context key `@framework/infra:shareRoles`.
   * @default false
   */
  readonly shareRoles?: boolean;
  /**
   * The `@framework-pro` license key every function gets as `FW_LICENSE_KEY` (pro packages check it at cold start and
   * keep working without it, loudly). Also read from the CDK context key `@framework/infra:licenseKey`, which
   * `fw deploy` fills from the deploying environment (a CI secret) or the project's `.env`.
   * @default - none: pro packages report the key missing
   */
  readonly licenseKey?: string;
  /**
   * Seconds API Gateway caches the API-key authorizer's verdict per `Authorization` value (routes with
   * `auth: [..., 'apiKey']`). Each cache miss is one authorizer invocation; a revoked key keeps passing the gateway
   * for up to this long. 0 turns caching off (every request invokes the authorizer; `X-API-Key` works deployed too).
   * Also read from the CDK context key `@framework/infra:apiKeyAuthorizerCacheTtl`.
   * @default 300
   */
  readonly apiKeyAuthorizerCacheTtlSeconds?: number;
}

/** The outputs the stack provides for each kind: every kind of core's `INTENT_OUTPUTS`, by intent id. */
type ProvidedOutputs = { readonly [K in OutputIntent]: Readonly<Record<string, OutputValues<K>>> };

/** CDK context key that turns on `shareRoles` (for `fw` commands: `cdk.json`'s `context`). */
export const SHARE_ROLES_CONTEXT = '@framework/infra:shareRoles';

/** CDK context key that sets `apiKeyAuthorizerCacheTtlSeconds` (`cdk.json`'s `context`); core names it, `fw dev` reads it too. */
export { API_KEY_AUTHORIZER_CACHE_TTL_CONTEXT };

/** CDK context key carrying the `@framework-pro` license key to the functions (`fw deploy` sets it); core names it. */
export { LICENSE_KEY_CONTEXT };

/**
 * The app model of one stage as a CloudFormation stack named `{project}-{stage}`: every intent, every function, the
 * HTTP API, with every name, size and variable read from the model. Route functions live in nested stacks
 * (`RoutesNN`) so a 300-route app stays under CloudFormation's 500-resource limit per stack.
 */
export class FrameworkStack extends Stack {
  public readonly app: AppDefinition;
  public readonly bundle: AppBundle;
  public readonly handlerInfo: ReadonlyMap<string, HandlerInfo | undefined>;
  /** What each function uses (by function name), inferred from its bundle: decides grants and VPC placement. */
  public readonly needs: ReadonlyMap<string, FunctionNeeds>;
  /** The queues, functions and buckets each function names in its own files (by function name): decides grants. */
  public readonly references: ReadonlyMap<string, FunctionReferences>;
  /** The AWS services each function calls (by function name): decides VPC endpoints and the reachability check. */
  public readonly services: ReadonlyMap<string, readonly ServiceUse[]>;
  public readonly network?: AppNetwork;
  public readonly databases = new Map<string, AppDatabase>();
  public readonly buckets = new Map<string, AppBucket>();
  public readonly queues = new Map<string, AppQueue>();
  public readonly caches = new Map<string, AppCache>();
  public readonly auth?: AppAuth;
  public readonly idempotencyTable?: IdempotencyTable;
  /** The API-key pepper secret, when a function's code calls `createApiKeys(` (`@framework/integrations`). */
  public readonly apiKeysPepper?: ApiKeysPepper;
  /** The integrations vault's KMS key, when a function's code calls `createOAuthConnections(` or `createWebhooks(`. */
  public readonly vaultKey?: IntegrationsVaultKey;
  public readonly httpApi?: AppHttpApi;
  /** The HTTP API's Lambda authorizer of the routes that accept API keys, when a route does and a function creates keys. */
  public apiKeyAuthorizer?: ApiKeyAuthorizer;
  /** The WebSocket API of `src/ws/`, when it has handlers. */
  public readonly wsApi?: AppWebSocketApi;
  /** The WebSocket API's connection registry (table) and fan-out queue, with the API. */
  public readonly wsRegistry?: WsConnectionRegistry;
  /**
   * The framework's WebSocket function (`{project}-{stage}-fw-ws-registry`): consumes the fan-out queue and serves
   * `$connect` / `$disconnect` when `src/ws/` has no such file.
   */
  public wsRegistryFunction?: AppFunction;
  /** WebSocket routes by route key (`$connect`, `sendMessage`). */
  public readonly wsRoutes = new Map<string, apigw.WebSocketRoute>();
  /** Every function, by function name. */
  public readonly functions = new Map<string, AppFunction>();
  /** Route shards (nested stacks) by shard number; only non-empty shards exist. */
  public readonly routeShards = new Map<number, NestedStack>();
  /** By cron id. */
  public readonly schedules = new Map<string, scheduler.Schedule>();
  /** Migration functions and their deploy-time custom resources, by database id. */
  public readonly migrations = new Map<string, DatabaseMigrations>();
  /** Routes by route key. */
  public readonly routes = new Map<string, apigw.HttpRoute>();
  /** `infrastructure.notify`'s channels: SES identity, configuration set, events topic, over the app's dispatcher queue. */
  public notify?: NotifyChannels;
  /** With `shareRoles`: the shared execution roles, by the grants they carry. */
  public readonly sharedRoles = new Map<string, iam.Role>();
  private readonly shareRoles: boolean;
  private readonly apiKeyAuthorizerCacheTtlSeconds: number | undefined;

  constructor(scope: Construct, id: string | undefined, props: FrameworkStackProps) {
    const { app } = props;
    super(scope, id ?? stackName(app.project, app.stage), {
      stackName: stackName(app.project, app.stage),
      env: { account: app.config.account, region: app.region },
      description: `${app.project} (${app.stage}): framework app`,
      ...props,
    });
    this.app = app;
    this.shareRoles = props.shareRoles ?? [true, 'true'].includes(this.node.tryGetContext(SHARE_ROLES_CONTEXT) as boolean | string);
    const ttlContext = this.node.tryGetContext(API_KEY_AUTHORIZER_CACHE_TTL_CONTEXT) as number | string | undefined;
    this.apiKeyAuthorizerCacheTtlSeconds = props.apiKeyAuthorizerCacheTtlSeconds ?? (ttlContext === undefined ? undefined : apiKeyAuthorizerCacheTtl(ttlContext));
    const shardCount = props.routeShards ?? DEFAULT_ROUTE_SHARDS;
    if (!Number.isInteger(shardCount) || shardCount < 1 || shardCount > 100) {
      throw new InfraError('FW_ERR_INFRA_INVALID_PROP', `routeShards must be an integer from 1 to 100, got ${shardCount}. Keep the default (${DEFAULT_ROUTE_SHARDS}) unless a stack reports more than ${MAX_RESOURCES_PER_STACK} resources.`);
    }
    for (const [key, value] of Object.entries(app.config.tags)) Tags.of(this).add(key, value);
    Tags.of(this).add('framework:project', app.project);
    Tags.of(this).add('framework:stage', app.stage);

    this.bundle = props.bundle ?? bundleApp(app, props.bundleOptions);
    // `bundleOptions.cache: false` turns off both kept results: the builds and what was read from them.
    this.handlerInfo = props.handlerInfo ?? readHandlerInfo(app, this.bundle, { cache: props.bundleOptions?.cache });
    const { needs, references, services } = this.analyzeBundles();
    this.needs = needs;
    this.references = references;
    this.services = services;
    this.checkScopes();

    // One method per kind, in the order their resources appear in the template. The outputs' type comes from core's
    // INTENT_OUTPUTS: a kind whose outputs the stack does not provide does not compile here.
    this.network = this.addNetwork();
    const databases = this.addDatabases();
    const storage = this.addBuckets();
    const queues = this.addQueues();
    const caches = this.addCaches();
    this.auth = this.addAuth(props.resourceServerIdentifier);
    this.idempotencyTable = this.addIdempotencyTable(props.idempotencyTable);
    this.apiKeysPepper = this.addApiKeysPepper();
    this.vaultKey = this.addVaultKey();
    this.wsApi = this.addWebSocketApi();
    this.wsRegistry = this.app.ws ? new WsConnectionRegistry(this, 'WebSocketRegistry', { definition: this.app.ws }) : undefined;
    const outputs: ProvidedOutputs = { databases, storage, queues, caches, auth: this.authOutputs(), idempotency: this.idempotencyOutputs(), ws: this.wsApi && this.wsRegistry ? { [WS_ID]: this.wsApi.outputs(this.wsRegistry) } : {} };
    const environment = this.resolveEnvironment(outputs);
    const licenseKey = props.licenseKey ?? (this.node.tryGetContext(LICENSE_KEY_CONTEXT) as string | undefined);
    if (typeof licenseKey === 'string' && licenseKey !== '') environment[ENV.licenseKey] = licenseKey;
    this.addMigrations(environment);
    this.addFunctions(environment);
    this.httpApi = this.addRoutes(environment, shardCount);
    this.connectWebSocketRoutes(environment);

    this.grantNeeds();
    this.orderAfterMigrations();
    this.connectQueues();
    this.addSchedules();
    this.notify = this.addNotify();
    this.addUploadNotifications();
    this.addOutputs();
    this.node.addValidation({ validate: () => this.checkResourceCounts() });
  }

  /** What each function uses, the names its files reference and the services it calls, from its bundle. */
  private analyzeBundles(): { needs: Map<string, FunctionNeeds>; references: Map<string, FunctionReferences>; services: Map<string, readonly ServiceUse[]> } {
    const needs = new Map<string, FunctionNeeds>();
    const references = new Map<string, FunctionReferences>();
    const services = new Map<string, readonly ServiceUse[]>();
    const limits = { userPoolHasDomain: this.app.auth !== undefined && poolHasDomain(this.app.auth) };
    for (const unit of this.app.units) {
      const info = this.handlerInfo.get(unit.functionName);
      const idempotent = info?.idempotent === true || (info?.middleware ?? []).some((m) => /idempot/i.test(m));
      const bundle = this.bundle.functions.get(unit.functionName);
      const refs = referencesOf(bundle?.projectCode ?? '', bundle?.projectPackages);
      const need = needsOf(bundle?.packages ?? new Set(), idempotent, refs);
      needs.set(unit.functionName, need);
      references.set(unit.functionName, refs);
      // Before the asset is hashed: the clients it will use load during Lambda's init, not on the first request.
      if (bundle) preloadSdkClients(bundle, sdkClientsToPreload(bundle, need));
      services.set(unit.functionName, servicesOf(need, refs, bundle?.projectPackages ?? new Set(), need.database && this.app.databases.length > 0, limits));
    }
    return { needs, references, services };
  }

  /** The private network exists only for resources that live in it (databases, caches). */
  private addNetwork(): AppNetwork | undefined {
    if (!this.app.databases.length && !this.app.caches.length) return undefined;
    const settings = this.app.config.settings.network;
    const network = new AppNetwork(this, 'Network', { settings, interfaceEndpoints: settings.natGateways === 0 ? this.endpointServices() : [] });
    this.checkReachability(network);
    return network;
  }

  private addDatabases(): Record<string, OutputValues<'databases'>> {
    const settings = this.app.config.settings;
    const outputs: Record<string, OutputValues<'databases'>> = {};
    for (const definition of this.app.databases) {
      const db = new AppDatabase(this, `Database-${definition.id}`, { definition, settings: settings.databases, resources: settings.resources, network: this.network! });
      this.databases.set(definition.id, db);
      outputs[definition.id] = { host: db.host, port: db.port, name: definition.databaseName, secretArn: db.secret.secretArn };
    }
    return outputs;
  }

  private addBuckets(): Record<string, OutputValues<'storage'>> {
    const outputs: Record<string, OutputValues<'storage'>> = {};
    for (const definition of this.app.storage) {
      const bucket = new AppBucket(this, `Storage-${definition.id}`, { definition, resources: this.app.config.settings.resources });
      this.buckets.set(definition.id, bucket);
      outputs[definition.id] = { bucket: bucket.bucket.bucketName, publicUrl: bucket.publicUrl };
    }
    return outputs;
  }

  private addQueues(): Record<string, OutputValues<'queues'>> {
    const outputs: Record<string, OutputValues<'queues'>> = {};
    for (const definition of this.app.queues) {
      const queue = new AppQueue(this, `Queue-${definition.id}`, { definition });
      this.queues.set(definition.id, queue);
      outputs[definition.id] = { url: queue.queue.queueUrl };
    }
    return outputs;
  }

  private addCaches(): Record<string, OutputValues<'caches'>> {
    const outputs: Record<string, OutputValues<'caches'>> = {};
    for (const definition of this.app.caches) {
      const cache = new AppCache(this, `Cache-${definition.id}`, { definition, settings: this.app.config.settings.caches, network: this.network! });
      this.caches.set(definition.id, cache);
      outputs[definition.id] = { endpoint: cache.endpoint };
    }
    return outputs;
  }

  private addAuth(resourceServerIdentifier: string | undefined): AppAuth | undefined {
    if (!this.app.auth) return undefined;
    return new AppAuth(this, 'Auth', {
      definition: this.app.auth,
      resources: this.app.config.settings.resources,
      resourceServerIdentifier: resourceServerIdentifier ?? this.app.project,
      preTokenGeneration: this.bundle.authTrigger ? { bundle: this.bundle.authTrigger, settings: this.app.config.settings } : undefined,
    });
  }

  private authOutputs(): Record<string, OutputValues<'auth'>> {
    const auth = this.auth;
    if (!auth) return {};
    return { [AUTH_ID]: { issuer: auth.issuer, audience: auth.audience, userPoolId: auth.userPool.userPoolId, resourceServer: auth.resourceServerIdentifier } };
  }

  /** The table exists when asked for, or when a handler declares idempotency or a function bundles the DynamoDB client. */
  private addIdempotencyTable(wanted: boolean | undefined): IdempotencyTable | undefined {
    if (!(wanted ?? [...this.needs.values()].some((n) => n.idempotency))) return undefined;
    return new IdempotencyTable(this, 'Idempotency', { tableName: this.app.idempotency.tableName, resources: this.app.config.settings.resources });
  }

  /** One pepper per app and stage, only when a function creates API keys: the others neither see nor read it. */
  private addApiKeysPepper(): ApiKeysPepper | undefined {
    if (![...this.references.values()].some((r) => r.apiKeys)) return undefined;
    return new ApiKeysPepper(this, 'ApiKeysPepper', { resources: this.app.config.settings.resources });
  }

  /** One vault key per app and stage, only when a function keeps secrets in the vault: the others cannot use it. */
  private addVaultKey(): IntegrationsVaultKey | undefined {
    if (![...this.references.values()].some((r) => r.vault)) return undefined;
    return new IntegrationsVaultKey(this, 'IntegrationsVault', { resources: this.app.config.settings.resources, alias: `alias/${stackName(this.app.project, this.app.stage)}-integrations-vault` });
  }

  private idempotencyOutputs(): Record<string, OutputValues<'idempotency'>> {
    // No table: the variable still names the stage's table, so every function has the same variables.
    return { [IDEMPOTENCY_ID]: { tableName: this.idempotencyTable?.table.tableName ?? this.app.idempotency.tableName } };
  }

  /** The app's variables with their cloud values, through core's one resolver. */
  private resolveEnvironment(provided: ProvidedOutputs): Record<string, string> {
    const outputs = new IntentOutputs();
    for (const intent of Object.keys(provided) as OutputIntent[]) {
      for (const [id, values] of Object.entries(provided[intent])) outputs.provide(intent, id, values as OutputValues<typeof intent>);
    }
    return outputs.resolve(this.app.environment);
  }

  /** Each database's migration function (core's `migrationFunction`) behind its deploy-time custom resource. */
  private addMigrations(environment: Record<string, string>): void {
    for (const [id, bundle] of this.bundle.migrations) {
      const definition = this.app.databases.find((d) => d.id === id)!;
      this.migrations.set(id, new DatabaseMigrations(this, `Migrations-${id}`, { database: this.databases.get(id)!, unit: definition.migrationFunction, bundle, settings: this.app.config.settings, environment, network: this.network! }));
    }
  }

  /** Standalone functions, queue consumers and crons, in this stack (routes live in their shards). */
  private addFunctions(environment: Record<string, string>): void {
    const others = new Construct(this, 'Functions');
    for (const unit of this.app.units) {
      if (unit.kind === 'route') continue;
      this.functions.set(unit.functionName, this.createFunction(others, unit, environment));
    }
  }

  /** The HTTP API and each route's function, in its nested stack (by a hash of the route key). */
  private addRoutes(environment: Record<string, string>, shardCount: number): AppHttpApi | undefined {
    const { app } = this;
    if (!app.routes.length) return undefined;
    const clientIds = this.auth ? [...this.auth.appClients.values()].map((c) => c.userPoolClientId) : [];
    const httpApi = new AppHttpApi(this, 'Http', {
      apiName: stackName(app.project, app.stage),
      settings: app.config.settings.api,
      logs: app.config.settings.logs,
      jwt: this.auth && clientIds.length ? { issuer: this.auth.issuer, audience: clientIds } : undefined,
    });
    this.apiKeyAuthorizer = this.addApiKeyAuthorizer(httpApi, environment);
    for (const route of app.routes) {
      const shardNumber = routeShardOf(route.routeKey, shardCount);
      let shard = this.routeShards.get(shardNumber);
      if (!shard) {
        shard = new NestedStack(this, `Routes${String(shardNumber).padStart(2, '0')}`, { description: `${stackName(app.project, app.stage)} routes, shard ${shardNumber}` });
        this.routeShards.set(shardNumber, shard);
      }
      const fn = this.createFunction(shard, route, environment);
      this.functions.set(route.functionName, fn);
      this.addRoute(shard, httpApi, route, fn.function);
    }
    return httpApi;
  }

  /**
   * The Lambda authorizer of the routes that accept API keys, when one does and a function creates keys (its bundle
   * holds `createApiKeys(`): it reads `fw_api_keys` (the databases' credentials, in the VPC with them), the pepper, and
   * verifies tokens with the pool's preloaded keys.
   */
  private addApiKeyAuthorizer(httpApi: AppHttpApi, environment: Record<string, string>): ApiKeyAuthorizer | undefined {
    const bundle = this.bundle.apiKeyAuthorizer;
    const acceptsKeys = this.app.routes.some((route) => this.handlerInfo.get(route.functionName)?.auth?.includes('apiKey') === true);
    if (!bundle || !acceptsKeys) return undefined;
    const usesDatabase = this.app.databases.length > 0;
    const authorizer = new ApiKeyAuthorizer(this, 'ApiKeyAuthorizer', {
      bundle,
      settings: this.app.config.settings,
      httpApi: httpApi.api,
      environment: {
        ...environment,
        ...(this.auth ? { [TOKEN_VERIFIER_ENV.jwks]: this.auth.preloadJwks(this.app.config.settings).jwks } : {}),
        ...(this.apiKeysPepper ? this.apiKeysPepper.environment : {}),
      },
      ...(this.apiKeyAuthorizerCacheTtlSeconds !== undefined ? { resultsCacheTtlSeconds: this.apiKeyAuthorizerCacheTtlSeconds } : {}),
      ...(usesDatabase ? { network: this.network! } : {}),
    });
    const fn = authorizer.function.function;
    for (const db of this.databases.values()) db.grantConnect(fn);
    this.apiKeysPepper?.grantRead(fn);
    // It reads the migrated fw_api_keys, as every database-using function does (`orderAfterMigrations`).
    for (const migration of this.migrations.values()) (fn.node.defaultChild as CfnResource).addResourceDependency(migration.resource.node.defaultChild as CfnResource, 'the API-key authorizer reads the migrated schema');
    return authorizer;
  }

  /** The WebSocket API (its routes come once their functions exist: `connectWebSocketRoutes`). */
  private addWebSocketApi(): AppWebSocketApi | undefined {
    const { ws } = this.app;
    if (!ws) return undefined;
    return new AppWebSocketApi(this, 'WebSocket', { definition: ws, stageName: this.app.stage, settings: this.app.config.settings.api, logs: this.app.config.settings.logs });
  }

  /**
   * The `$connect` authorizer whenever core says `$connect` is authorized (a `$connect` and an app client): a token
   * sent at connect is verified and becomes the connection's caller, as fw dev does; scopes `src/ws/$connect.ts`
   * declares are required, and the app's pool must issue them, as for a scoped HTTP route.
   */
  private addWsConnectAuthorizer(environment: Record<string, string>): WsConnectAuthorizer | undefined {
    const connect = this.app.ws?.routes.find((r) => r.routeKey === '$connect');
    const scopes = connect ? this.handlerInfo.get(connect.functionName)?.scopes ?? [] : [];
    if (!connect) return undefined;
    // Without an app client no token can be issued deployed, so a public `$connect` has nothing to verify.
    const hasClients = Object.keys(this.app.auth?.appClients ?? {}).length > 0;
    if (scopes.length === 0 && !(wsConnectIsAuthorized(this.app.ws, this.app.auth) && hasClients)) return undefined;
    const auth = this.auth;
    if (!auth || !this.app.auth || Object.keys(this.app.auth.appClients).length === 0) {
      throw new InfraError('FW_ERR_INFRA_SCOPES_WITHOUT_AUTH', `${connect.file} requires scopes ${scopes.join(', ')}, but ${this.app.auth ? 'security.appClients declares no app client to request tokens' : 'the app has no auth intent to issue tokens'}. Add \`auth: {}\` to infrastructure in fw.config.ts and an app client in config/security.ts, or remove the scopes to make $connect public.`);
    }
    const undeclared = scopes.filter((s) => !(s in this.app.auth!.scopes));
    if (undeclared.length) {
      throw new InfraError('FW_ERR_INFRA_UNDECLARED_SCOPE', `${connect.file} requires ${undeclared.join(', ')}, which config/security.ts does not declare (declared: ${Object.keys(this.app.auth.scopes).join(', ') || 'none'}). Declare the scope in security.scopes or fix its spelling in the handler.`);
    }
    const bundle = this.bundle.wsAuthorizer;
    if (!bundle) throw new Error(`the bundle has no $connect authorizer (${this.app.ws!.connectAuthorizerFunctionName})`);
    const withJwks = { ...environment, [TOKEN_VERIFIER_ENV.jwks]: auth.preloadJwks(this.app.config.settings).jwks };
    return new WsConnectAuthorizer(this, 'WsConnectAuthorizer', { bundle, settings: this.app.config.settings, tokenScopes: scopes.map((s) => auth.tokenScope(s)), environment: withJwks });
  }

  /** One route per handler file of `src/ws/`, integrated with its function; `$connect` behind its authorizer if any. */
  private connectWebSocketRoutes(environment: Record<string, string>): void {
    const { wsApi } = this;
    if (!wsApi) return;
    const authorizer = this.addWsConnectAuthorizer(environment);
    for (const route of this.app.ws!.routes) {
      const wsRoute = wsApi.addRoute(route, this.functionOf(route), route.routeKey === '$connect' ? authorizer?.authorizer : undefined);
      // Messages are authorized at `$connect`, the only route API Gateway runs an authorizer on.
      if (!(route.routeKey === '$connect' && authorizer)) acknowledgeNag(wsRoute, 'publicWebSocketRoute');
      this.wsRoutes.set(route.routeKey, wsRoute);
    }
    this.addWsRegistryFunction(environment);
  }

  /**
   * The framework's WebSocket function: the fan-out queue's consumer, and the `$connect` / `$disconnect` routes the
   * app has no file for, so the registry records and forgets every connection.
   */
  private addWsRegistryFunction(environment: Record<string, string>): void {
    const { wsApi, wsRegistry } = this;
    const bundle = this.bundle.wsRegistry;
    if (!wsApi || !wsRegistry) return;
    if (!bundle) throw new Error(`the bundle has no WebSocket registry function (${this.app.ws!.registryFunctionName})`);
    const unit: FunctionUnit = {
      kind: 'function',
      id: 'fw/ws-registry',
      file: '@framework/runtime (wsRegistryMain)',
      functionName: bundle.functionName,
      memorySize: 256,
      timeout: WS_REGISTRY_FUNCTION_TIMEOUT_SECONDS,
      environment: {},
    };
    const fn = new AppFunction(new Construct(this, 'WebSocketRegistryFunction'), bundle.functionName, { unit, bundle, settings: this.app.config.settings, environment });
    this.wsRegistryFunction = fn;
    fn.function.addEventSource(new SqsEventSource(wsRegistry.fanoutQueue, { batchSize: 5, reportBatchItemFailures: true }));
    wsRegistry.grantReadWriteData(fn.function);
    wsApi.grantManageConnections(fn.function);
    acknowledgeNagFindings(fn.function.role!, 'wsManageConnections', [this.manageConnectionsFinding(fn.function.role!)]);
    for (const routeKey of ['$connect', '$disconnect'] as const) {
      if (this.wsRoutes.has(routeKey)) continue;
      const route = wsApi.addFrameworkRoute(routeKey, fn.function);
      acknowledgeNag(route, 'publicWebSocketRoute');
      this.wsRoutes.set(routeKey, route);
    }
  }

  /** How cdk-nag prints the ManageConnections resource in a policy of `role`'s stack (see `grantManageConnections`). */
  private manageConnectionsFinding(role: iam.IRole): string {
    const api = this.wsApi!.api.node.defaultChild as CfnElement;
    const apiRef = Stack.of(role) === api.stack ? `<${api.stack.resolve(api.logicalId)}>` : nagResourceRef(role, api, 'Ref');
    const region = Token.isUnresolved(this.region) ? '<AWS::Region>' : this.region;
    const account = Token.isUnresolved(this.account) ? '<AWS::AccountId>' : this.account;
    return `Resource::arn:<AWS::Partition>:execute-api:${region}:${account}:${apiRef}/${this.app.stage}/*/@connections/*`;
  }

  /** Each queue's consumer reads it, reporting partial batch failures. */
  private connectQueues(): void {
    for (const queue of this.queues.values()) {
      const consumer = this.functionOf(queue.definition);
      consumer.addEventSource(new SqsEventSource(queue.queue, { batchSize: queue.definition.batchSize, reportBatchItemFailures: true }));
    }
  }

  /** The function names of `infrastructure.notify`'s dispatcher units: the queue's consumer and the sweeper cron. */
  private notifyDispatchers(): string[] {
    const notify = this.app.notify;
    if (!notify) return [];
    const consumer = this.app.queues.find((q) => q.id === notify.queue)?.functionName;
    const sweeper = notify.sweeper === undefined ? undefined : this.app.crons.find((c) => c.id === notify.sweeper)?.functionName;
    return [consumer, sweeper].filter((name): name is string => name !== undefined);
  }

  /**
   * `infrastructure.notify`: the notify channels with the app's own queue as the dispatcher queue (no second queue),
   * the send permissions and variables on its consumer and the sweeper cron only, and the events function subscribed
   * to the SES delivery-events topic.
   */
  private addNotify(): NotifyChannels | undefined {
    const notify = this.app.notify;
    if (!notify) return undefined;
    const queue = this.queues.get(notify.queue)!;
    const [dispatcher, sweeper] = this.notifyDispatchers().map((name) => this.functions.get(name)!.function);
    const events = notify.eventsFunction === undefined ? undefined : this.functions.get(this.app.functions.find((f) => f.id === notify.eventsFunction)!.functionName)!.function;
    const channels = new NotifyChannels(this, 'Notify', {
      project: this.app.project,
      stage: this.app.stage,
      emailIdentity: 'domain' in notify.email ? { domain: notify.email.domain } : { email: notify.email.address },
      queue: queue.queue,
      ...(queue.deadLetterQueue ? { deadLetterQueue: queue.deadLetterQueue } : {}),
      ...(dispatcher ? { dispatcher } : {}),
      ...(events ? { eventsHandler: events } : {}),
      smsOriginationArns: notify.smsOriginationArns,
      whatsappPhoneNumberArns: notify.whatsappPhoneNumberArns,
      pushPlatformApplicationArns: notify.pushPlatformApplicationArns,
    });
    if (sweeper) channels.addDispatcher(sweeper);
    return channels;
  }

  /** Each cron's schedule, invoking its function with the event core defines. */
  private addSchedules(): void {
    for (const cron of this.app.crons) {
      this.schedules.set(
        cron.id,
        new scheduler.Schedule(this, `Schedule-${cron.id}`, {
          scheduleName: cron.ruleName,
          description: cron.description,
          schedule: scheduler.ScheduleExpression.expression(cron.expression, TimeZone.ETC_UTC),
          target: new LambdaInvoke(this.functionOf(cron), {
            retryAttempts: cron.retryAttempts,
            // The event core defines (the one fw dev sends), filled in by the scheduler at each invocation.
            input: scheduler.ScheduleTargetInput.fromObject(
              schedulerEvent({ id: scheduler.ContextAttribute.executionId, time: scheduler.ContextAttribute.scheduledTime, account: Aws.ACCOUNT_ID, region: Aws.REGION, scheduleArn: scheduler.ContextAttribute.scheduleArn }),
            ),
          }),
          enabled: cron.enabled,
        }),
      );
    }
    // The scheduler's target role is a stack-level singleton created by LambdaInvoke.
    const cronFindings = this.app.crons.map((c) => `Resource::${nagResourceRef(this, this.functionOf(c).node.defaultChild as CfnElement)}:*`);
    for (const child of this.node.children) if (child.node.id.startsWith('SchedulerRoleForTarget')) acknowledgeNagFindings(child, 'schedulerTarget', cronFindings);
  }

  /** A bucket's notifications: a message to a queue of the app, or an invocation of a standalone function. */
  private addUploadNotifications(): void {
    for (const bucket of this.buckets.values()) {
      for (const notification of bucket.definition.notifications) {
        const filters = notification.prefix ? [{ prefix: notification.prefix }] : [];
        const destination = notification.queue !== undefined
          ? new s3n.SqsDestination(this.queues.get(notification.queue)!.queue)
          : new s3n.LambdaDestination(this.functionOf(this.app.functions.find((f) => f.id === notification.function)!));
        bucket.bucket.addEventNotification(s3.EventType.OBJECT_CREATED, destination, ...filters);
      }
    }
  }

  /** The Lambda function of a unit of the app. */
  public functionOf(unit: Pick<FunctionUnit, 'functionName'>): lambda.Function {
    const fn = this.functions.get(unit.functionName);
    if (!fn) throw new Error(`no function ${unit.functionName} in this stack`);
    return fn.function;
  }

  /** Whether a unit's function is placed in the VPC: only when it talks to a database or cache of the app. */
  private joinsVpc(functionName: string): boolean {
    const need = this.needs.get(functionName)!;
    return (need.database && this.app.databases.length > 0) || (need.cache && this.app.caches.length > 0);
  }

  /**
   * The interface endpoints a VPC without NAT needs: every service a function in the VPC calls (that has an
   * endpoint and no free gateway endpoint), and Secrets Manager for the migration functions.
   */
  private endpointServices(): string[] {
    const wanted = new Set<string>();
    if (this.bundle.migrations.size > 0) wanted.add('secretsmanager');
    for (const unit of this.app.units) {
      if (!this.joinsVpc(unit.functionName)) continue;
      for (const use of this.services.get(unit.functionName) ?? []) if (use.endpoint && !GATEWAY_SERVICES.includes(use.service)) wanted.add(use.service);
    }
    return [...wanted].sort();
  }

  /** Every function in the VPC reaches every AWS service it calls; otherwise it would hang until its timeout. */
  private checkReachability(network: AppNetwork): void {
    const problems: string[] = [];
    for (const unit of this.app.units) {
      if (!this.joinsVpc(unit.functionName)) continue;
      for (const use of this.services.get(unit.functionName) ?? []) {
        if (!network.reaches(use.service)) problems.push(`${unit.functionName} (${unit.file}) ${use.reason}, but ${use.endpoint ? `the VPC has no endpoint for ${use.service}` : use.noEndpointBecause ?? 'the framework knows no VPC endpoint for it'}`);
      }
    }
    if (problems.length) {
      throw new InfraError('FW_ERR_INFRA_UNREACHABLE_SERVICE', `Functions in the isolated subnets of the ${this.app.stage} stage (no NAT gateway: network.natGateways is 0) cannot reach a service they call:\n${problems.map((p) => `  - ${p}`).join('\n')}\nSet network.natGateways to 1 or more in this stage's overrides, or move that call into a function that uses no database or cache (it then runs outside the VPC).`);
    }
  }

  private createFunction(scope: Construct, unit: FunctionUnit, appEnvironment: Record<string, string>): AppFunction {
    const joinsVpc = this.joinsVpc(unit.functionName);
    const bundle = this.bundle.functions.get(unit.functionName)!;
    // A function that verifies tokens itself (@framework/auth's verifier is in its bundle) starts with the pool's keys.
    const verifiesTokens = this.auth !== undefined && bundle.packages.has('aws-jwt-verify');
    const pepper = this.references.get(unit.functionName)?.apiKeys && this.apiKeysPepper ? this.apiKeysPepper.environment : {};
    const vault = this.references.get(unit.functionName)?.vault && this.vaultKey ? this.vaultKey.environment : {};
    return new AppFunction(scope, unit.functionName, {
      unit,
      bundle,
      settings: this.app.config.settings,
      environment: { ...appEnvironment, ...(verifiesTokens ? { [TOKEN_VERIFIER_ENV.jwks]: this.auth!.preloadJwks(this.app.config.settings).jwks } : {}), ...pepper, ...vault, ...unit.environment },
      network: joinsVpc ? this.network : undefined,
      role: this.shareRoles ? this.sharedRoleOf(unit.functionName) : undefined,
    });
  }

  /** What a function is granted, as one comparable value: functions with equal grants may share a role. */
  private grantsOf(functionName: string): string {
    const need = this.needs.get(functionName)!;
    const refs = this.references.get(functionName)!;
    const buckets = selectReferenced(new Map(this.app.storage.map((b) => [b.id, b])), refs.buckets).map(([id]) => id);
    const unit = this.app.units.find((u) => u.functionName === functionName)!;
    return JSON.stringify({
      vpc: this.joinsVpc(functionName),
      // A consumer's event source grants receive and delete on its queue to its role.
      consumes: unit.kind === 'queue' ? unit.id : undefined,
      // The notify dispatcher's send permissions are its own: never shared with a function that has the same others.
      notifyDispatcher: this.notifyDispatchers().includes(functionName) || undefined,
      database: need.database && this.app.databases.length > 0,
      buckets,
      bucketWrites: buckets.length > 0 && refs.bucketWrites,
      queues: selectReferenced(new Map(this.app.queues.map((q) => [q.id, q])), refs.queues).map(([id]) => id),
      invokes: this.invokeTargetsOf(functionName).map((t) => t.functionName),
      wsSends: refs.wsSends && this.app.ws !== undefined,
      wsRegistry: (refs.wsRegistry || unit.kind === 'ws') && this.app.ws !== undefined,
      wsPublishes: refs.wsPublishes && this.app.ws !== undefined,
      authAdmin: refs.authAdmin === true && this.auth !== undefined,
      apiKeys: refs.apiKeys === true,
      bedrockModels: refs.bedrockModels,
      vault: refs.vault === true,
      idempotency: need.idempotency,
    });
  }

  /** The standalone functions a function may invoke: those it names, never itself. */
  private invokeTargetsOf(functionName: string): FunctionUnit[] {
    const refs = this.references.get(functionName)!;
    return this.app.functions.filter((target) => target.functionName !== functionName && (refs.functions === ALL || refs.functions.includes(target.id)));
  }

  /** The shared execution role of a function's grants (created on first use, in this stack). */
  private sharedRoleOf(functionName: string): iam.Role {
    const grants = this.grantsOf(functionName);
    let role = this.sharedRoles.get(grants);
    if (!role) {
      const vpc = (JSON.parse(grants) as { vpc: boolean }).vpc;
      role = new iam.Role(this, `SharedRole-${shortHash(grants)}`, {
        assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
        description: 'Execution role shared by the functions of the app with these grants',
        managedPolicies: [
          iam.ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole'),
          ...(vpc ? [iam.ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaVPCAccessExecutionRole')] : []),
        ],
      });
      this.sharedRoles.set(grants, role);
    }
    return role;
  }

  private addRoute(scope: Construct, httpApi: AppHttpApi, route: RouteDefinition, fn: lambda.IFunction): void {
    const info = this.handlerInfo.get(route.functionName);
    const scopes = info?.scopes ?? [];
    // A route that accepts API keys is behind the API-key Lambda authorizer (keys and, when listed, tokens): the JWT
    // authorizer would refuse every key. The route's scopes are checked in the function (Lambda authorizers of HTTP
    // APIs take no scopes). See @framework/integrations, "API keys".
    const acceptsKeys = info?.auth?.includes('apiKey') === true;
    const keyAuthorizer = acceptsKeys ? this.apiKeyAuthorizer : undefined;
    const secured = !acceptsKeys && scopes.length > 0 && httpApi.authorizer !== undefined && this.auth !== undefined;
    const auth = this.auth;
    const httpRoute = new apigw.HttpRoute(scope, `Route-${route.functionName}`, {
      httpApi: httpApi.api,
      routeKey: apigw.HttpRouteKey.with(route.path, apigw.HttpMethod[route.method as keyof typeof apigw.HttpMethod]),
      integration: new HttpLambdaIntegration(`Integration-${route.functionName}`, fn),
      ...(secured && auth ? { authorizer: httpApi.authorizer!, authorizationScopes: scopes.map((s) => auth.tokenScope(s)) } : {}),
      ...(keyAuthorizer ? { authorizer: keyAuthorizer.routeAuthorizer } : {}),
    });
    if (!secured && !keyAuthorizer) acknowledgeNag(httpRoute, acceptsKeys ? 'apiKeyRoute' : 'publicRoute');
    this.routes.set(route.routeKey, httpRoute);
  }

  /** Scoped routes need tokens: an auth intent with app clients, and scopes the security config declares. */
  private checkScopes(): void {
    for (const route of this.app.routes) {
      const scopes = this.handlerInfo.get(route.functionName)?.scopes ?? [];
      if (!scopes.length) continue;
      if (!this.app.auth || Object.keys(this.app.auth.appClients).length === 0) {
        throw new InfraError('FW_ERR_INFRA_SCOPES_WITHOUT_AUTH', `Route ${route.routeKey} (${route.file}) requires scopes ${scopes.join(', ')}, but ${this.app.auth ? 'security.appClients declares no app client to request tokens' : 'the app has no auth intent to issue tokens'}. Add \`auth: {}\` to infrastructure in fw.config.ts and an app client in config/security.ts, or remove the scopes to make the route public.`);
      }
      const undeclared = scopes.filter((s) => !(s in this.app.auth!.scopes));
      if (undeclared.length) {
        throw new InfraError('FW_ERR_INFRA_UNDECLARED_SCOPE', `Route ${route.routeKey} (${route.file}) requires ${undeclared.join(', ')}, which config/security.ts does not declare (declared: ${Object.keys(this.app.auth.scopes).join(', ') || 'none'}). Declare the scope in security.scopes or fix its spelling in the handler.`);
      }
    }
  }

  /**
   * Least privilege: each function gets exactly the grants for what its bundle uses and its own files name: the
   * credentials of the databases when it uses a database client, send on the queues it names, invoke on the
   * standalone functions it names, read (or read-write when it calls a write method) on the buckets it names.
   */
  private grantNeeds(): void {
    // A shared role carries the grants of its functions once (they are equal by construction).
    const granted = new Set<iam.IRole>();
    for (const [name, fn] of this.functions) {
      if (granted.has(fn.function.role!)) continue;
      granted.add(fn.function.role!);
      const need = this.needs.get(name)!;
      const refs = this.references.get(name)!;
      const role = fn.function;
      if (need.database) for (const db of this.databases.values()) db.grantConnect(role);
      const buckets = selectReferenced(this.buckets, refs.buckets);
      if (buckets.length) {
        const findings = ['Action::s3:GetObject*', 'Action::s3:GetBucket*', 'Action::s3:List*', ...(refs.bucketWrites ? ['Action::s3:DeleteObject*', 'Action::s3:Abort*'] : [])];
        for (const [, bucket] of buckets) {
          if (refs.bucketWrites) bucket.grantReadWrite(role);
          else bucket.grantRead(role);
          findings.push(`Resource::${nagResourceRef(fn.function.role!, bucket.bucket.node.defaultChild as CfnElement)}/*`);
        }
        acknowledgeNagFindings(fn.function.role!, 'bucketGrants', findings);
      }
      for (const [, queue] of selectReferenced(this.queues, refs.queues)) queue.queue.grantSendMessages(role);
      const targets = this.invokeTargetsOf(name).map((target) => this.functionOf(target));
      for (const target of targets) target.grantInvoke(role);
      if (targets.length) acknowledgeNagFindings(role.role!, 'invokeGrants', targets.map((t) => `Resource::${nagResourceRef(fn.function.role!, t.node.defaultChild as CfnElement)}:*`));
      if (need.idempotency && this.idempotencyTable) this.idempotencyTable.grantReadWriteData(role);
      if (refs.wsSends && this.wsApi) {
        this.wsApi.grantManageConnections(role);
        acknowledgeNagFindings(fn.function.role!, 'wsManageConnections', [this.manageConnectionsFinding(fn.function.role!)]);
      }
      // The ws functions record and forget connections ($connect, $disconnect) and may subscribe them; other
      // functions only when their code calls a registry method.
      const unit = this.app.units.find((u) => u.functionName === name);
      if (this.wsRegistry && (refs.wsRegistry || unit?.kind === 'ws')) this.wsRegistry.grantReadWriteData(role);
      if (this.wsRegistry && refs.wsPublishes) this.wsRegistry.grantPublish(role);
      if (refs.authAdmin && this.auth) this.auth.grantServiceAuth(role);
      if (refs.apiKeys && this.apiKeysPepper) this.apiKeysPepper.grantRead(role);
      if (refs.bedrockModels) grantBedrockModels(fn.function.role!, refs.bedrockModels);
      if (refs.vault && this.vaultKey) this.vaultKey.grant(role);
    }
  }

  /**
   * Deployment applies pending migrations before new code takes traffic: every function whose bundle uses a database
   * (the same analysis that places it in the VPC and grants the credentials) waits for each database's migration
   * custom resource. Only the function resource itself depends on it (its role and log group need not wait). For a
   * route in a nested shard, CDK lifts the dependency to the shard's `AWS::CloudFormation::Stack` resource in the
   * parent, so a shard holding any database-using route is updated only after the migrations succeeded; a failed
   * migration fails the deployment (and rolls it back) before any of those functions changes.
   */
  private orderAfterMigrations(): void {
    if (this.migrations.size === 0) return;
    const applies = [...this.migrations.values()].map((m) => m.resource.node.defaultChild as CfnResource);
    for (const [name, fn] of this.functions) {
      if (!this.needs.get(name)?.database) continue;
      const cfnFunction = fn.function.node.defaultChild as CfnResource;
      for (const apply of applies) cfnFunction.addResourceDependency(apply, `${name} runs against the migrated schema`);
    }
  }

  private addOutputs(): void {
    const out = (id: string, value: string, description: string) => new CfnOutput(this, id.replace(/[^A-Za-z0-9]/g, ''), { value, description });
    if (this.httpApi) out('ApiUrl', this.httpApi.url, 'Base URL of the HTTP API');
    if (this.wsApi) {
      out('WebSocketUrl', this.wsApi.stage.url, 'URL clients connect to (FW_WS_URL)');
      out('WebSocketManagementUrl', this.wsApi.stage.callbackUrl, 'The @connections endpoint of the WebSocket API (FW_WS_MANAGEMENT_URL)');
      if (this.wsRegistry) out('WebSocketRegistryTable', this.wsRegistry.table.tableName, 'The WebSocket connection registry (FW_WS_REGISTRY_TABLE)');
    }
    if (this.auth) {
      out('UserPoolId', this.auth.userPool.userPoolId, 'Cognito user pool id');
      out('AuthIssuer', this.auth.issuer, 'JWT issuer');
      for (const [name, client] of this.auth.appClients) out(`AppClient${name}Id`, client.userPoolClientId, `App client ${name}`);
      if (this.auth.domain) out('AuthDomain', this.auth.domain.baseUrl(), 'Hosted sign-in and token endpoint');
    }
    for (const [id, db] of this.databases) {
      out(`Database${id}Endpoint`, db.host, `Database ${id} endpoint`);
      out(`Database${id}SecretArn`, db.secret.secretArn, `Database ${id} credentials secret`);
    }
    for (const [id, bucket] of this.buckets) {
      out(`Storage${id}Bucket`, bucket.bucket.bucketName, `Bucket of storage ${id}`);
      out(`Storage${id}Url`, bucket.publicUrl, `Public URL of storage ${id}`);
    }
    for (const [id, queue] of this.queues) out(`Queue${id}Url`, queue.queue.queueUrl, `URL of queue ${id}`);
    for (const [id, cache] of this.caches) out(`Cache${id}Endpoint`, cache.endpoint, `Endpoint of cache ${id}`);
    if (this.idempotencyTable) out('IdempotencyTable', this.idempotencyTable.table.tableName, 'Idempotency and saga table');
  }

  private checkResourceCounts(): string[] {
    const counts = new Map<Stack, number>();
    const visit = (c: IConstruct) => {
      if (c instanceof CfnResource) counts.set(Stack.of(c), (counts.get(Stack.of(c)) ?? 0) + 1);
      for (const child of c.node.children) visit(child);
    };
    visit(this);
    return [...counts]
      .filter(([, n]) => n > MAX_RESOURCES_PER_STACK)
      .map(([stack, n]) => `${stack.node.path} has ${n} resources, over CloudFormation's ${MAX_RESOURCES_PER_STACK}: raise routeShards of FrameworkStack (this moves routes once).`);
  }
}
