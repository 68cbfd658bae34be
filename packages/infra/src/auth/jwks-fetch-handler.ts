/**
 * The deploy-time function of `PreloadedJwks`, as inline code (CommonJS, no dependency: Node's `fetch`). It answers
 * CloudFormation itself (a PUT of the result to the event's pre-signed `ResponseURL`), as every custom resource
 * without the provider framework does. It keeps only the public fields of each key, so the JWKS stays well under the
 * 4 KB of a function's variables (a Cognito pool publishes two RSA keys, about 900 bytes).
 *
 * On any failure it still answers SUCCESS with an empty `Jwks`: preloading saves a fetch, it must never block a deploy.
 */
export const JWKS_FETCH_HANDLER_CODE = `
const KEEP = ['kid', 'kty', 'alg', 'use', 'n', 'e', 'crv', 'x', 'y'];
async function fetchJwks(uri) {
  let lastError;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** attempt));
    try {
      const response = await fetch(uri, { signal: AbortSignal.timeout(5000), redirect: 'error' });
      if (response.status !== 200) throw new Error(uri + ' answered ' + response.status);
      const body = await response.json();
      if (!body || !Array.isArray(body.keys) || body.keys.length === 0) throw new Error(uri + ' holds no keys');
      return { keys: body.keys.map((key) => Object.fromEntries(KEEP.filter((f) => typeof key[f] === 'string').map((f) => [f, key[f]]))) };
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}
exports.handler = async (event) => {
  const uri = event.ResourceProperties.JwksUri;
  let data = { Jwks: '' };
  let reason = 'nothing to do on delete';
  if (event.RequestType !== 'Delete') {
    try {
      data = { Jwks: JSON.stringify(await fetchJwks(uri)) };
      reason = 'fetched ' + uri;
    } catch (error) {
      console.error('could not fetch the JWKS at deploy; functions will fetch it on their first token:', error);
      reason = 'not preloaded: ' + String((error && error.message) || error).slice(0, 200);
    }
  }
  const body = JSON.stringify({
    Status: 'SUCCESS',
    Reason: reason,
    PhysicalResourceId: event.PhysicalResourceId || uri,
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
    Data: data,
  });
  const answer = await fetch(event.ResponseURL, { method: 'PUT', body, headers: { 'content-type': '' } });
  if (!answer.ok) throw new Error('CloudFormation refused the answer: ' + answer.status);
};
`;
