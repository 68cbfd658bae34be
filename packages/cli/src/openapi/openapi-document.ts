import type { AppDefinition, OAuthFlow, RouteDefinition, RouteSchemaPart } from '@framework/core';
import { tokenScope } from '../dev/auth/issuer-plugin.js';
import { ERROR_RESPONSES, ERROR_SCHEMAS } from './error-components.js';
import type { ConvertedSchema, JsonSchema } from './json-schema.js';
import { isUnreadable, type RouteContractResult } from './route-contract.js';

/** An OpenAPI 3.1 document, as JSON. */
export type OpenApiDocument = Record<string, unknown> & { readonly openapi: '3.1.0'; readonly paths: Record<string, Record<string, unknown>> };

export interface OpenApiOptions {
  /**
   * Origin of the OAuth 2.0 endpoints (`/oauth2/authorize`, `/oauth2/token`): fw dev's issuer, or the stage's Cognito
   * domain. Used when the app has the auth intent.
   * @default - no OAuth flows: a bearer-token scheme
   */
  readonly authBaseUrl?: string;
  /**
   * The API's URL (`servers`).
   * @default - none: relative to where the document is served
   */
  readonly serverUrl?: string;
  /** @default '0.0.0' */
  readonly version?: string;
}

/** The document, and what could not be documented (one line each, for the terminal). */
export interface OpenApiResult {
  readonly document: OpenApiDocument;
  readonly problems: readonly string[];
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const STATUS_TEXT: Readonly<Record<string, string>> = { '200': 'OK.', '201': 'Created.', '202': 'Accepted.', '203': 'Non-authoritative information.', '206': 'Partial content.' };
const COMPONENT_NAME = /[^A-Za-z0-9._-]/g;

/**
 * The OpenAPI 3.1 document of an app from its routes and what each declares (`readRouteContracts`): one operation per
 * route file, `{id}` path parameters, request parts and responses from the schemas, the status codes the runtime
 * answers (201 for POST, 200 otherwise, 204 for no value), the framework's error bodies as components, and an OAuth 2.0
 * scheme with the declared scopes (flows from the app clients) required per operation; public routes have none.
 */
export function openApiDocument(app: AppDefinition, contracts: Readonly<Record<string, RouteContractResult>>, options: OpenApiOptions = {}): OpenApiResult {
  const problems: string[] = [];
  const schemas: Record<string, JsonSchema> = { ...ERROR_SCHEMAS };
  const security = securityScheme(app, options.authBaseUrl);
  const paths: Record<string, Record<string, unknown>> = {};
  const operationIds = new Set<string>();
  const routes = [...app.routes].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  for (const route of routes) {
    const contract = contracts[route.routeKey] ?? { error: 'it was not read' };
    const operationId = unique(operationIdOf(route), operationIds);
    const openApiPath = route.path.replace(/\{([^}+]+)\+\}/g, '{$1}');
    (paths[openApiPath] ??= {})[route.method.toLowerCase()] = operation(route, contract, operationId, security, (part, converted) => {
      if (converted.problem) problems.push(`${route.routeKey} (${route.file}): ${part}: ${converted.problem}`);
      return place(converted.schema, `${operationId}.${part.replace(' ', '')}`, schemas);
    });
    if (isUnreadable(contract)) problems.push(`${route.routeKey} (${route.file}): ${contract.error}`);
  }
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: { title: app.project, version: options.version ?? '0.0.0', description: `The HTTP API of ${app.project} (stage ${app.stage}), generated from its route files and their schemas.` },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    tags: [...new Set(routes.map(tagOf))].map((name) => ({ name })),
    paths,
    components: { schemas, responses: ERROR_RESPONSES, ...(security ? { securitySchemes: { [security.name]: security.scheme } } : {}) },
  };
  return { document, problems };
}

interface Security {
  readonly name: string;
  readonly scheme: Record<string, unknown>;
  /** A declared scope as the operation requires it (as tokens carry it). */
  scopeName(scope: string): string;
}

/**
 * With the auth intent: OAuth 2.0 with the flows the app clients use (authorization code for front ends, client
 * credentials for machines), each offering the scopes its clients may request, as tokens carry them (`<resource
 * server>/<scope>`, Cognito's custom scopes; the dev issuer accepts both forms). Without flows, or without the auth intent (tokens of another issuer):
 * a bearer JWT scheme, the scopes listed per operation.
 */
function securityScheme(app: AppDefinition, authBaseUrl: string | undefined): Security | undefined {
  const declared = app.config.security.scopes;
  const anyScoped = Object.keys(declared).length > 0;
  if (!app.auth && !anyScoped) return undefined;
  const clients = Object.values(app.config.security.appClients ?? {});
  // A flow offers the scopes its clients may request (the reporting client's machine tokens never carry tasks:write).
  const scopesOf = (flow: OAuthFlow) => {
    const held = new Set(clients.filter((c) => c.flows.includes(flow)).flatMap((c) => c.scopes));
    return Object.fromEntries(Object.entries(declared).filter(([scope]) => held.has(scope)).map(([scope, description]) => [tokenScope(app, scope), description]));
  };
  const flows: Record<string, unknown> = {};
  if (app.auth && authBaseUrl) {
    const base = authBaseUrl.replace(/\/+$/, '');
    if (clients.some((c) => c.flows.includes('authorization_code'))) {
      flows.authorizationCode = { authorizationUrl: `${base}/oauth2/authorize`, tokenUrl: `${base}/oauth2/token`, refreshUrl: `${base}/oauth2/token`, scopes: scopesOf('authorization_code') };
    }
    if (clients.some((c) => c.flows.includes('client_credentials'))) flows.clientCredentials = { tokenUrl: `${base}/oauth2/token`, scopes: scopesOf('client_credentials') };
  }
  if (Object.keys(flows).length > 0) {
    return { name: 'oauth2', scheme: { type: 'oauth2', description: 'Access tokens of the app\'s identity provider; each operation lists the scopes it requires.', flows }, scopeName: (s) => tokenScope(app, s) };
  }
  return {
    name: 'bearerAuth',
    scheme: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token carrying the scopes each operation lists.' },
    scopeName: (s) => tokenScope(app, s),
  };
}

/** Where a part's schema goes: `use` in the document, `shape` to read its fields from (the same unless hoisted). */
interface Placed {
  readonly use: JsonSchema;
  readonly shape: JsonSchema;
}

/** `part`: a schema part, or `response <status>` for `response` declared per status. */
type Place = (part: RouteSchemaPart | `response ${string}`, converted: ConvertedSchema) => Placed;

function operation(route: RouteDefinition, contract: RouteContractResult, operationId: string, security: Security | undefined, place: Place): Record<string, unknown> {
  const readable = !isUnreadable(contract);
  const declared = readable ? contract.schemas : {};
  const scopes = readable ? contract.scopes : [];
  const parameters: Record<string, unknown>[] = [];
  const notes: string[] = [];

  const params = declared.params ? place('params', declared.params).shape : undefined;
  for (const name of route.pathParams) {
    const catchAll = route.path.includes(`{${name}+}`);
    const schema = propertyOf(params, name) ?? { type: 'string' };
    parameters.push({ name, in: 'path', required: true, schema, ...(catchAll ? { description: 'The rest of the path (may contain "/").' } : {}) });
  }
  for (const [part, where] of [['query', 'query'], ['headers', 'header']] as const) {
    const converted = declared[part];
    if (!converted) continue;
    const schema = place(part, converted).shape;
    const properties = schema.properties;
    if (typeof properties !== 'object' || properties === null) {
      notes.push(`The ${part} schema is not an object of named fields, so its ${where} parameters are not listed.`);
      continue;
    }
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    for (const [name, property] of Object.entries(properties as Record<string, JsonSchema>)) {
      parameters.push({ name, in: where, required: required.has(name), schema: property, ...(typeof property.description === 'string' ? { description: property.description } : {}) });
    }
  }
  if (readable && contract.idempotent && !parameters.some((p) => p.in === 'header' && String(p.name).toLowerCase() === 'idempotency-key')) {
    parameters.push({ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string' }, description: 'Repeats with the same key (per caller) get the first answer instead of running again.' });
  }

  const op: Record<string, unknown> = { operationId, tags: [tagOf(route)], summary: `${route.method} ${route.path}` };
  if (scopes.length) notes.unshift(`Requires the scope${scopes.length > 1 ? 's' : ''} ${scopes.join(', ')}.`);
  else if (readable) notes.unshift('Public: no token needed.');
  else notes.unshift(`Not documented: ${contract.error}`);
  op.description = [...notes, `Source: \`${route.file}\`.`].join('\n\n');
  if (parameters.length) op.parameters = parameters;

  if (declared.body) op.requestBody = { required: true, content: { 'application/json': { schema: place('body', declared.body).use } } };
  else if (BODY_METHODS.has(route.method)) op.requestBody = { required: false, description: 'Any JSON: the route declares no body schema.', content: { 'application/json': { schema: {} } } };

  const responses: Record<string, unknown> = {};
  const success = route.method === 'POST' ? '201' : '200';
  const byStatus = readable ? contract.responses : undefined;
  if (byStatus) {
    // `response` per status: each declared status with its schema, in status order.
    for (const status of Object.keys(byStatus).sort()) {
      responses[status] = { description: STATUS_TEXT[status] ?? `Status ${status}.`, content: { 'application/json': { schema: place(`response ${status}`, byStatus[status]!).use } } };
    }
  } else if (declared.response) responses[success] = { description: route.method === 'POST' ? 'Created.' : 'OK.', content: { 'application/json': { schema: place('response', declared.response).use } } };
  else responses[success] = { description: 'The value the route returns (it declares no response schema).', content: { 'application/json': { schema: {} } } };
  if (!(declared.response || byStatus) || route.method === 'DELETE') responses['204'] = { description: 'No content: the route returned nothing.' };
  const validated = declared.body || declared.query || declared.params || declared.headers;
  if (validated || BODY_METHODS.has(route.method)) responses['400'] = { $ref: '#/components/responses/BadRequest' };
  if (scopes.length) {
    responses['401'] = { $ref: '#/components/responses/Unauthorized' };
    responses['403'] = { $ref: '#/components/responses/Forbidden' };
  }
  if (route.pathParams.length) responses['404'] = { $ref: '#/components/responses/NotFound' };
  responses['500'] = { $ref: '#/components/responses/InternalError' };
  op.responses = responses;
  if (scopes.length && security) op.security = [{ [security.name]: scopes.map((s) => security.scopeName(s)) }];
  return op;
}

/** `getTasksById`, `postTasksByIdAttachments`: the method and the path's words, parameters as `By<Name>`. */
export function operationIdOf(route: Pick<RouteDefinition, 'method' | 'path'>): string {
  const words = route.path
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      const param = /^\{([^}+]+)\+?\}$/.exec(segment);
      return param ? `By ${param[1]}` : segment;
    })
    .join(' ')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1));
  return `${route.method.toLowerCase()}${words.join('') || 'Root'}`;
}

function unique(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let i = 2; taken.has(candidate); i++) candidate = `${name}${i}`;
  taken.add(candidate);
  return candidate;
}

function tagOf(route: RouteDefinition): string {
  return route.path.split('/').find((segment) => segment && !segment.startsWith('{')) ?? 'root';
}

function propertyOf(schema: JsonSchema | undefined, name: string): JsonSchema | undefined {
  const properties = schema?.properties as Record<string, JsonSchema> | undefined;
  return typeof properties === 'object' && properties !== null && typeof properties[name] === 'object' ? properties[name] : undefined;
}

/**
 * A converted schema's place in the document. A schema with references into itself (`$ref: "#"` for a recursive
 * schema, `#/$defs/...`) would resolve them against the DOCUMENT's root: it becomes a component, its references
 * rewritten to point into it, and the operation refers to the component. Other schemas stay inline.
 */
export function place(schema: JsonSchema, name: string, components: Record<string, JsonSchema>): Placed {
  if (!hasLocalRef(schema)) return { use: schema, shape: schema };
  const componentName = unique(name.replace(COMPONENT_NAME, '_'), new Set(Object.keys(components)));
  const pointer = `#/components/schemas/${componentName}`;
  const rewritten = rewriteRefs(schema, pointer) as JsonSchema;
  components[componentName] = rewritten;
  return { use: { $ref: pointer }, shape: rewritten };
}

function hasLocalRef(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasLocalRef);
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([key, child]) => (key === '$ref' && typeof child === 'string' && child.startsWith('#')) || hasLocalRef(child));
}

function rewriteRefs(value: unknown, pointer: string): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, pointer));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, key === '$ref' && typeof child === 'string' && child.startsWith('#') ? `${pointer}${child.slice(1)}` : rewriteRefs(child, pointer)]));
}
