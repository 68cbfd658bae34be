import * as fs from 'node:fs';
import * as path from 'node:path';
import { AppClient, AuthIntent, DatabaseIntent, OAuthFlow, QueueIntent, Role, Scope, StorageIntent } from '../intents';
import { FrameworkTemplate } from './framework-template';

/** What a template adds to a project: intents, and the folders of sample files under `templates/`, in order. */
export interface TemplateDefinition {
  readonly description: string;
  /** Folders under `templates/`; a later folder's file replaces an earlier one's at the same path. */
  readonly layers: readonly string[];
  readonly scopes: readonly Scope[];
  readonly appClients: readonly AppClient[];
  readonly roles: readonly Role[];
  readonly auth?: AuthIntent;
  readonly databases: readonly DatabaseIntent[];
  readonly queues: readonly QueueIntent[];
  readonly storage: readonly StorageIntent[];
  /** Development dependencies the template's tests need (`name@range`). */
  readonly devDeps: readonly string[];
}

const API_SECURITY = {
  scopes: [
    { name: 'tasks:read', description: 'Read tasks' },
    { name: 'tasks:write', description: 'Create and change tasks' },
  ],
  appClients: [
    { name: 'web', scopes: ['tasks:read', 'tasks:write'], flows: [OAuthFlow.CLIENT_CREDENTIALS] },
    // The client users sign in with (a browser app): the tests' `app.as({ roles })` tokens are its tokens.
    { name: 'app', scopes: ['tasks:read', 'tasks:write'], flows: [OAuthFlow.AUTHORIZATION_CODE, OAuthFlow.REFRESH_TOKEN], callbackUrls: ['http://localhost:5173/callback'] },
  ],
  roles: [
    { name: 'member', scopes: ['tasks:read'], description: 'Reads tasks' },
    { name: 'editor', scopes: ['tasks:read', 'tasks:write'], description: 'Reads and writes tasks' },
  ],
  auth: {},
};
const DATABASE: DatabaseIntent = { id: 'main' };
const QUEUE: QueueIntent = { id: 'jobs', batchSize: 10 };
/** The database templates' tests run against PGlite served on a local port (a real PostgreSQL, no install). */
const PGLITE = ['@electric-sql/pglite@0.5.14', '@electric-sql/pglite-socket@0.2.17'];
const STORAGE: StorageIntent = { id: 'uploads', maxUploadBytes: 10 * 1024 * 1024 };

/** Every template, by its `FrameworkTemplate` value. */
export const TEMPLATES: Readonly<Record<FrameworkTemplate, TemplateDefinition>> = {
  [FrameworkTemplate.API]: {
    description: 'API: REST API with auth and scoped endpoints',
    layers: ['api'],
    ...API_SECURITY,
    databases: [],
    queues: [],
    storage: [],
    devDeps: [],
  },
  [FrameworkTemplate.API_DATABASE]: {
    description: 'API + Database: API with a relational database and migrations',
    layers: ['api', 'api-database'],
    ...API_SECURITY,
    databases: [DATABASE],
    queues: [],
    storage: [],
    devDeps: PGLITE,
  },
  [FrameworkTemplate.API_QUEUE]: {
    description: 'API + Queue: API with a message-queue consumer',
    layers: ['api', 'api-queue'],
    ...API_SECURITY,
    databases: [],
    queues: [QUEUE],
    storage: [],
    devDeps: [],
  },
  [FrameworkTemplate.API_STORAGE]: {
    description: 'API + Storage: API with object storage and file uploads',
    layers: ['api', 'api-storage'],
    ...API_SECURITY,
    databases: [],
    queues: [],
    storage: [STORAGE],
    devDeps: [],
  },
  [FrameworkTemplate.FULLSTACK]: {
    description: 'Fullstack: API + Database + Storage + Queue',
    layers: ['api', 'api-database', 'api-queue', 'api-storage', 'fullstack'],
    ...API_SECURITY,
    databases: [DATABASE],
    queues: [QUEUE],
    storage: [STORAGE],
    devDeps: PGLITE,
  },
};

/** The `templates/` folder of this package (beside `lib/` in the published package and in the repository). */
export function templatesRoot(): string {
  return path.resolve(__dirname, '..', '..', 'templates');
}

/**
 * The sample files of a template: project-relative path → absolute source path. Later layers win. Dot-files and
 * folders named `node_modules` are never part of a template.
 */
export function templateFiles(template: FrameworkTemplate): Map<string, string> {
  const files = new Map<string, string>();
  for (const layer of TEMPLATES[template].layers) {
    const root = path.join(templatesRoot(), layer);
    if (!fs.existsSync(root)) continue;
    for (const rel of listFiles(root)) files.set(rel, path.join(root, rel));
  }
  return files;
}

function listFiles(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(root, child));
    else if (entry.isFile()) out.push(child);
  }
  return out;
}
