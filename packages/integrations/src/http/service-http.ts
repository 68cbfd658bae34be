import { registerServiceExtension } from '@framework/runtime';
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

/** Adds `service.http` to the runtime's service object (done when this package is imported). */
export function registerHttpService(): void {
  registerServiceExtension('http', httpFactory);
}
