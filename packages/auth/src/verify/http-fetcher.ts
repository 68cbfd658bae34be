import { FetchError, NonRetryableFetchError } from 'aws-jwt-verify/error';
import type { Fetcher } from 'aws-jwt-verify/https';

/**
 * A JWKS fetcher for issuers on plain HTTP (the `fw dev` issuer on 127.0.0.1): aws-jwt-verify's own fetcher speaks
 * HTTPS only. Node's `fetch`, with the same time limit as aws-jwt-verify's (3 s for the response).
 */
export class HttpFetcher implements Fetcher {
  async fetch(uri: string): Promise<ArrayBuffer> {
    let response: Response;
    try {
      response = await fetch(uri, { signal: AbortSignal.timeout(3000), redirect: 'error' });
    } catch (error) {
      throw new FetchError(uri, (error as Error).message);
    }
    if (response.status !== 200) throw new NonRetryableFetchError(uri, `status code is ${response.status}, expected 200`);
    return response.arrayBuffer();
  }
}
