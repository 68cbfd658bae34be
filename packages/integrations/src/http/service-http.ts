import { registerServiceExtension, RuntimeError } from '@framework/runtime';
import { createHttpClient, type HttpClient } from './http-client.js';

declare module '@framework/runtime' {
  interface Service {
    /**
     * The outbound HTTP client (from `@framework/integrations`): timeouts, retries, a breaker per host, logged calls.
     * One per container, so breakers and connections outlive an invocation; in a route bind it to the request:
     * `service.http.withContext(ctx).get(url)`.
     */
    readonly http: HttpClient;
  }
}

const httpFactory = (): HttpClient => createHttpClient();

/**
 * `service.http` in a bundle whose function's own code never names `http` (`@framework/infra` then defines
 * `globalThis.__fwOmitServiceHttp`, see `SERVICE_CLIENT_OMIT_DEFINES` of the runtime): every call says why the client
 * is missing and the fix, instead of `undefined is not a function`.
 */
const leftOutHttpFactory = (): HttpClient => {
  const fail = (): never => {
    throw new RuntimeError(
      'FW_ERR_SERVICE_LEFT_OUT',
      "service.http is not in this function's bundle: its own code never names service.http, so @framework/infra left the HTTP client (and undici) out. Call service.http in the function's own code (not only in a package it imports), then deploy again.",
    );
  };
  return { request: fail, get: fail, post: fail, put: fail, patch: fail, delete: fail, withContext: fail, circuitState: fail };
};

/**
 * Adds `service.http` to the runtime's service object (done when this package is imported). A bundle built with
 * the omit define gets the left-out client: dead-code elimination then drops `createHttpClient` and what it imports
 * (the package's `sideEffects` list names only its index, so the unused modules go too).
 */
export function registerHttpService(): void {
  registerServiceExtension('http', globalThis.__fwOmitServiceHttp ? leftOutHttpFactory : httpFactory);
}
