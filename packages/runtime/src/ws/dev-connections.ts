import { DEV_WS_SERVICE, ENV, type DevWsReply, type DevWsRequest } from '@framework/core/names';
import { devWorkerServiceCall } from '../idempotency/dev-server-idempotency-store.js';

/**
 * Inside `fw dev`, `service.ws` reaches the dev server's WebSocket API through the worker's service call rather than
 * the AWS SDK over loopback HTTP: the same operations and answers, without a signed HTTP request per message (the
 * SDK path cost most of the time of a `$default` echo; see bench/ws). Undefined where that call does not exist (a
 * deployed function) or the management endpoint is not the dev server's own.
 */
export function devConnections(env: NodeJS.ProcessEnv = process.env): ((request: DevWsRequest) => Promise<DevWsReply>) | undefined {
  const call = devWorkerServiceCall(env);
  const endpoint = env[ENV.wsManagementUrl];
  const dev = env[ENV.devEndpoint];
  if (!call || !endpoint || !dev || !endpoint.startsWith(dev)) return undefined;
  return (request) => call(DEV_WS_SERVICE, request) as Promise<DevWsReply>;
}
