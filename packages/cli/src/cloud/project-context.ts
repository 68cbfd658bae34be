import * as fs from 'node:fs';
import * as path from 'node:path';
import { CloudCommandError } from '../errors.js';

/** The file CDK users keep context values in, beside the app (`{ "context": { "<key>": <value> } }`). */
export const CDK_JSON_FILE = 'cdk.json';

/**
 * The CDK context the project sets in `cdk.json` (for example `"@framework/infra:shareRoles": true`), or `{}` when
 * there is no such file. The toolkit, as `fw` drives it, reads no `cdk.json`, so the cloud commands read it here and
 * hand it to the app: synth, deploy and diff then see the same values. The toolkit's own keys win over the file's.
 */
export function readProjectContext(rootDir: string): Record<string, unknown> {
  const file = path.join(rootDir, CDK_JSON_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CloudCommandError('FW_ERR_CLOUD_BAD_CDK_JSON', `${CDK_JSON_FILE} is not valid JSON (${(error as Error).message}): fix it, or remove it`, { cause: error });
  }
  const context = (parsed as { context?: unknown } | null)?.context;
  if (context === undefined) return {};
  if (typeof context !== 'object' || context === null || Array.isArray(context)) {
    throw new CloudCommandError('FW_ERR_CLOUD_BAD_CDK_JSON', `"context" in ${CDK_JSON_FILE} must be an object of context keys and values, e.g. { "context": { "@framework/infra:shareRoles": true } }`);
  }
  return Object.assign(Object.create(null) as Record<string, unknown>, context);
}
