/** What the default client's calls resolve to. */
export interface HttpResponse<T = any> {
  readonly status: number;
  readonly headers: Headers;
  /** The body parsed as JSON when it is JSON, else the text (undefined when empty). */
  readonly body: T;
  /** The body as received. */
  readonly text: string;
}

/** Options of one call of the default client. */
export interface HttpRequestOptions {
  /** Sent as JSON (a string or a Uint8Array as is). */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Added to the path as a query string. */
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
}

/** What a client factory (`startApp({ client })`, e.g. a generated `createClient`) is given. */
export interface ClientFactoryOptions {
  /** The app's base URL (`http://127.0.0.1:54321`). */
  readonly baseUrl: string;
  /** A fetch that adds the identity's `Authorization` header (minted on first use) to every call. */
  readonly fetch: typeof fetch;
}

/**
 * The client every app gets without a generated one: a fetch per method, JSON in and out, never throwing on a status
 * (a test asserts on it). `app.as(...)` gives one whose calls carry that identity's token.
 */
export class HttpClient {
  constructor(private readonly options: ClientFactoryOptions) {}

  get<T = any>(path: string, options?: Omit<HttpRequestOptions, 'body'>): Promise<HttpResponse<T>> {
    return this.request('GET', path, options);
  }

  post<T = any>(path: string, body?: unknown, options?: Omit<HttpRequestOptions, 'body'>): Promise<HttpResponse<T>> {
    return this.request('POST', path, { ...options, body });
  }

  put<T = any>(path: string, body?: unknown, options?: Omit<HttpRequestOptions, 'body'>): Promise<HttpResponse<T>> {
    return this.request('PUT', path, { ...options, body });
  }

  patch<T = any>(path: string, body?: unknown, options?: Omit<HttpRequestOptions, 'body'>): Promise<HttpResponse<T>> {
    return this.request('PATCH', path, { ...options, body });
  }

  delete<T = any>(path: string, options?: HttpRequestOptions): Promise<HttpResponse<T>> {
    return this.request('DELETE', path, options);
  }

  async request<T = any>(method: string, path: string, options: HttpRequestOptions = {}): Promise<HttpResponse<T>> {
    const url = new URL(path, this.options.baseUrl);
    for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { ...options.headers };
    let body: string | Uint8Array | undefined;
    if (options.body !== undefined) {
      if (typeof options.body === 'string' || options.body instanceof Uint8Array) body = options.body;
      else {
        body = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
    }
    const response = await this.options.fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await response.text();
    let parsed: unknown = text === '' ? undefined : text;
    if (text && (response.headers.get('content-type') ?? '').includes('json')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        // Left as text: the test sees what came.
      }
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }
}
