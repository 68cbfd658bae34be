import { SERVICE_CLIENT_OMIT_DEFINES } from '@framework/runtime';
import { referencesAny, type FunctionReferences } from './bundle-references.js';

/**
 * esbuild `define`s that leave the runtime's built-in service clients out of a function's bundle when its own code
 * does not name them: `@framework/runtime`'s service object reads `globalThis.__fwOmitServiceQueues` /
 * `__fwOmitServiceInvoke` / `__fwOmitServiceWs` (and `@framework/integrations` reads `__fwOmitServiceHttp`), and with the literal `true` in their place dead-code elimination drops
 * the queue client, `invoke`, the WebSocket client and `service.http` (and the naming code they import). The references are the ones the function's IAM grants come from
 * (`referencesOf`), so a client left out is one the function could not have used deployed; using it anyway throws
 * `FW_ERR_SERVICE_LEFT_OUT`. A reference the analysis cannot resolve (`all`) keeps the client.
 */
export function serviceBundleDefines(references: FunctionReferences): Record<string, string> {
  const defines: Record<string, string> = {};
  if (!referencesAny(references.queues)) defines[SERVICE_CLIENT_OMIT_DEFINES.queues] = 'true';
  if (!referencesAny(references.functions)) defines[SERVICE_CLIENT_OMIT_DEFINES.invoke] = 'true';
  if (!references.wsSends && !references.wsRegistry) defines[SERVICE_CLIENT_OMIT_DEFINES.ws] = 'true';
  if (references.httpClient === false) defines[SERVICE_CLIENT_OMIT_DEFINES.http] = 'true';
  return defines;
}
