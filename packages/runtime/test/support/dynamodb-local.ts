import { spawnSync } from 'node:child_process';
import { startDynamoDBLocal, type DynamoDBLocalServer } from './dynamodb-local-server.js';

export { localClientConfig } from './dynamodb-local-server.js';

/** DynamoDB Local for the tests: started once per test run, the first time a test asks for it. */
export type DynamoDBLocal = Omit<DynamoDBLocalServer, 'stop'>;

let started: Promise<DynamoDBLocalServer> | undefined;
/** The running server, kept so `stop` can end it synchronously (mocha runs with --exit). */
let running: DynamoDBLocalServer | undefined;

/** Why DynamoDB Local cannot run here, or undefined when it can. */
export function dynamoDBLocalUnavailable(): string | undefined {
  const java = spawnSync('java', ['-version'], { stdio: 'ignore' });
  if (java.error || java.status !== 0) return 'Java is not installed (DynamoDB Local needs Java 17; CI installs openjdk-17-jre-headless)';
  return undefined;
}

export function dynamoDBLocal(): Promise<DynamoDBLocal> {
  started ??= startDynamoDBLocal().then((server) => (running = server));
  return started;
}

function stop(): void {
  running?.stop();
  running = undefined;
  started = undefined;
}

// A root-level hook: registered once, when the first test file imports this module.
after(stop);
process.once('exit', stop);
