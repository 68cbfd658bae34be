/**
 * verifyAccessToken on a warm JWKS against aws-jwt-verify used directly, in the same run, on the same token with the
 * same checks (signature, iss, exp, token_use, client_id). Two pairs:
 *
 * - fw dev's path: `verifyAccessToken` (the verifier from the variables, JWKS fetched once from a local issuer over
 *   loopback HTTP) vs aws-jwt-verify's `JwtVerifier` with Cognito's field check and the keys in its cache;
 * - the deployed path: `AccessTokenVerifier.forPool` vs aws-jwt-verify's `CognitoJwtVerifier`, both with the pool's
 *   JWKS in their caches (no network).
 *
 * Rounds alternate between the two sides; the figure is the median of the rounds' per-call cost. Target: at most 1.2x.
 *
 * Run: npx projen bench:auth
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CognitoJwtVerifier, JwtVerifier } from 'aws-jwt-verify';
import { validateCognitoJwtFields } from 'aws-jwt-verify/cognito-verifier';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { AccessTokenVerifier, verifyAccessToken } from '@framework/auth';

const CALLS_PER_ROUND = 2000;
const ROUNDS = 15;

const pair = await generateKeyPair('RS256', { extractable: true });
const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'bench-key', alg: 'RS256', use: 'sig' };
const jwks = { keys: [jwk] };
const sign = (iss: string, clientId: string) =>
  new SignJWT({ sub: 'user-1', username: 'user-1', token_use: 'access', scope: 'tasks-api/tasks:read', client_id: clientId, 'cognito:groups': ['member'] })
    .setProtectedHeader({ alg: 'RS256', kid: 'bench-key' })
    .setIssuer(iss)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(pair.privateKey);

let jwksRequests = 0;
const server = http.createServer((_request, response) => {
  jwksRequests += 1;
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/** Median over rounds of the per-call cost in µs, both sides measured in alternating rounds. */
async function compare(ours: () => Promise<unknown>, direct: () => Promise<unknown>): Promise<{ ours: number; direct: number }> {
  const round = async (fn: () => Promise<unknown>) => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < CALLS_PER_ROUND; i++) await fn();
    return Number(process.hrtime.bigint() - start) / 1e3 / CALLS_PER_ROUND;
  };
  // Warm-up: JIT, and the JWKS fetch of the first call.
  await round(ours);
  await round(direct);
  const samples = { ours: [] as number[], direct: [] as number[] };
  for (let r = 0; r < ROUNDS; r++) {
    if (r % 2) {
      samples.direct.push(await round(direct));
      samples.ours.push(await round(ours));
    } else {
      samples.ours.push(await round(ours));
      samples.direct.push(await round(direct));
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return { ours: median(samples.ours), direct: median(samples.direct) };
}

try {
  // fw dev: the function's variables as fw dev sets them.
  process.env.FW_DEV_ENDPOINT = issuer;
  process.env.FW_AUTH_ISSUER = issuer;
  process.env.FW_AUTH_AUDIENCE = 'local-web';
  const devToken = await sign(issuer, 'local-web');
  const directDev = JwtVerifier.create({
    issuer,
    jwksUri: `${issuer}/.well-known/jwks.json`,
    audience: null,
    customJwtCheck: ({ payload }) => validateCognitoJwtFields(payload, { tokenUse: 'access', clientId: ['local-web'] }),
  });
  directDev.cacheJwks(jwks);
  const dev = await compare(() => verifyAccessToken(devToken), () => directDev.verify(devToken));

  // Deployed: a pool's token, its JWKS in both caches.
  const userPoolId = 'eu-west-1_BenchPool';
  const poolToken = await sign(`https://cognito-idp.eu-west-1.amazonaws.com/${userPoolId}`, 'client-web');
  const ours = AccessTokenVerifier.forPool({ userPoolId, clientIds: ['client-web'] });
  ours.cacheJwks(jwks);
  const direct = CognitoJwtVerifier.create({ userPoolId, tokenUse: 'access', clientId: ['client-web'] });
  direct.cacheJwks(jwks);
  const pool = await compare(() => ours.verify(poolToken), () => direct.verify(poolToken));

  console.log(`anchor: aws-jwt-verify JwtVerifier (fw dev issuer, warm JWKS): ${dev.direct.toFixed(1)} µs/call (1.00x)`);
  console.log(`verifyAccessToken under fw dev (warm JWKS, ${jwksRequests} JWKS fetch in ${(ROUNDS + 1) * CALLS_PER_ROUND} calls): ${dev.ours.toFixed(1)} µs/call (${(dev.ours / dev.direct).toFixed(2)}x anchor; target <= 1.20x)`);
  console.log(`anchor: aws-jwt-verify CognitoJwtVerifier (pool JWKS cached): ${pool.direct.toFixed(1)} µs/call (1.00x)`);
  console.log(`AccessTokenVerifier.forPool (pool JWKS cached): ${pool.ours.toFixed(1)} µs/call (${(pool.ours / pool.direct).toFixed(2)}x anchor; target <= 1.20x)`);
} finally {
  server.closeAllConnections();
  server.close();
}

// Cold starts with the JWKS preloaded at deploy vs fetched on the first token (fresh processes, counted requests).
await import('./cold-start.mts');
