import type { LambdaClient } from '@aws-sdk/client-lambda';
import { RemoteMigrationError } from '../errors.js';
import type { MigrationCommand, MigrationCommandResult } from '../migrate-handler.js';

export interface InvokeMigrationOptions {
  /** The deployed migration function: core's `migrationFunctionName(project, stage, databaseId)`. */
  readonly functionName: string;
  readonly command: MigrationCommand;
  /** @default - the SDK's region resolution */
  readonly region?: string;
  /** A client to use (tests pass a stub: AWS itself cannot run here). @default - a new LambdaClient */
  readonly client?: Pick<LambdaClient, 'send'>;
}

/** Invokes the deployed migration function synchronously and returns its answer (`fw migrate --stage <stage>`). */
export async function invokeMigrationFunction(options: InvokeMigrationOptions): Promise<MigrationCommandResult> {
  const { LambdaClient, InvokeCommand } = await import('@aws-sdk/client-lambda');
  const client = options.client ?? new LambdaClient(options.region ? { region: options.region } : {});
  let output;
  try {
    output = await client.send(new InvokeCommand({ FunctionName: options.functionName, InvocationType: 'RequestResponse', Payload: new TextEncoder().encode(JSON.stringify(options.command)) }));
  } catch (error) {
    const name = (error as Error).name;
    const hint = name === 'ResourceNotFoundException' ? ' The stage is not deployed, or was deployed without this database: run fw deploy first.' : '';
    throw new RemoteMigrationError(`Could not invoke the migration function ${options.functionName}: ${(error as Error).message}.${hint}`, error);
  }
  const text = output.Payload ? new TextDecoder().decode(output.Payload) : 'null';
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  if (output.FunctionError) {
    const { errorType, errorMessage } = (body ?? {}) as { errorType?: string; errorMessage?: string };
    throw new RemoteMigrationError(`The migration function ${options.functionName} failed: ${errorType ?? 'Error'}: ${errorMessage ?? text}`);
  }
  return body as MigrationCommandResult;
}
