import { LAMBDA_BUNDLE_DEFINE } from '@framework/runtime';

/**
 * esbuild `define`s every function bundled for Lambda gets, whatever its code: Lambda always passes its context to
 * the handler (and an HTTP API event its request id), so `@framework/runtime`'s handlers take them as given and the
 * stand-in context and fallback request id, which only a call without a context (a test, a script, unbundled code)
 * needs, stay out of the bundle (about 0.5 KB of the minimal route's).
 */
export function lambdaBundleDefines(): Record<string, string> {
  return { [LAMBDA_BUNDLE_DEFINE]: 'true' };
}
