import { AUTH_ID, ENV, resolveEnvironment, type AppDefinition, type IntentOutputValues, type OutputValues } from '@framework/core';
import { DevServerError } from '../../errors.js';
import { localAudiences, localResourceServer } from '../auth/issuer-plugin.js';

/**
 * Every variable of the app model with its local value (core's one resolver, fed the engines' outputs by intent), plus
 * FW_DEV_ENDPOINT and FW_VALIDATE_RESPONSES; an output no engine serves is an error.
 */
export function fillEnvironment(app: AppDefinition, outputs: ReadonlyMap<string, Readonly<Record<string, Readonly<Record<string, string>>>>>, url: string): Record<string, string> {
  const { values, missing } = resolveEnvironment(app.environment, Object.fromEntries(outputs) as IntentOutputValues);
  if (missing.length) {
    throw new DevServerError('FW_ERR_DEV_NO_ENGINE', `no local engine gives a value for ${missing.map((m) => `${m.variable} (${m.intent} "${m.id}" ${m.output})`).join(', ')}: this version of fw dev has no engine for that intent; remove the intent or add its engine under dev/engines/`);
  }
  values[ENV.devEndpoint] = url;
  // Response schemas are checked while developing (a mismatch is a 500 naming the field); deployed, only on opt-in.
  values[ENV.validateResponses] ??= '1';
  return values;
}

/**
 * The `auth` kind's outputs under `fw dev`: the dev server is the issuer. The resource server is named as the deployed
 * stack names it by default (the project), so a prefixed scope means the same locally and deployed; the audience is
 * the app clients' ids, as deployed (local ids).
 */
export function localAuthOutputs(app: AppDefinition, url: string): Readonly<Record<string, OutputValues<'auth'>>> {
  return { [AUTH_ID]: { issuer: url, audience: localAudiences(app).join(','), userPoolId: 'local', resourceServer: localResourceServer(app) } };
}
