/**
 * Cold start of a function that verifies a token itself, with the JWKS preloaded (FW_AUTH_JWKS, as infra sets it
 * after fetching the pool's JWKS at deploy) vs fetched on the first token (the anchor, same run). Each sample is a
 * fresh Node process (a cold container) loading the function's esbuild bundle and verifying one token; the local
 * issuer counts the JWKS requests it gets. Modes alternate; the figures are medians.
 *
 * The JWKS endpoint is on loopback here, so the saved time is the floor: from Lambda, a fetch of Cognito's JWKS adds
 * a DNS lookup, a TLS handshake and a round trip (tens of milliseconds), and a function in isolated subnets cannot
 * reach it at all. The request count is the point: 0 vs 1.
 *
 * Run: npx projen bench:auth (after the warm-JWKS figures), or tsx bench/auth/cold-start.mts
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';

const SAMPLES = 15;
const here = path.dirname(fileURLToPath(import.meta.url));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-auth-cold-'));

// The function: a webhook that verifies the caller's access token, bundled as infra bundles functions (ESM, node).
fs.writeFileSync(path.join(dir, 'function.ts'), `import { verifyAccessToken } from '@framework/auth';\nexport const main = async (token: string) => (await verifyAccessToken(token)).subject;\n`);
await build({
  entryPoints: [path.join(dir, 'function.ts')],
  outfile: path.join(dir, 'index.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  mainFields: ['module', 'main'],
  banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  nodePaths: [path.resolve(here, '..', '..', 'node_modules')],
  logLevel: 'error',
});
// A cold container: the clock starts before the bundle loads and stops when the first token is verified.
fs.writeFileSync(path.join(dir, 'cold.mjs'), `const start = performance.now();\nconst { main } = await import('./index.mjs');\nconst loaded = performance.now();\nawait main(process.argv[2]);\nconst done = performance.now();\nprocess.stdout.write(JSON.stringify({ load: loaded - start, verify: done - loaded }));\n`);

const pair = await generateKeyPair('RS256', { extractable: true });
const jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'bench-key', alg: 'RS256', use: 'sig' }] };
let jwksRequests = 0;
const server = http.createServer((_request, response) => {
  jwksRequests += 1;
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const token = await new SignJWT({ sub: 'user-1', username: 'user-1', token_use: 'access', scope: 'tasks-api/tasks:read', client_id: 'local-web' })
  .setProtectedHeader({ alg: 'RS256', kid: 'bench-key' })
  .setIssuer(issuer)
  .setIssuedAt()
  .setExpirationTime('1h')
  .sign(pair.privateKey);

/** One cold start: its timings and the JWKS requests the issuer got meanwhile. */
async function coldStart(preloaded: boolean): Promise<{ load: number; verify: number; total: number; requests: number }> {
  const before = jwksRequests;
  const env = { PATH: process.env.PATH, FW_DEV_ENDPOINT: issuer, FW_AUTH_ISSUER: issuer, FW_AUTH_AUDIENCE: 'local-web', ...(preloaded ? { FW_AUTH_JWKS: JSON.stringify(jwks) } : {}) };
  const child = spawn(process.execPath, [path.join(dir, 'cold.mjs'), token], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the cold start exited with ${code}`);
  const timing = JSON.parse(out) as { load: number; verify: number };
  return { ...timing, total: timing.load + timing.verify, requests: jwksRequests - before };
}

try {
  const samples = { preloaded: [] as Awaited<ReturnType<typeof coldStart>>[], fetched: [] as Awaited<ReturnType<typeof coldStart>>[] };
  await coldStart(true); // warm the file system cache
  for (let i = 0; i < SAMPLES; i++) {
    const order = i % 2 ? (['fetched', 'preloaded'] as const) : (['preloaded', 'fetched'] as const);
    for (const mode of order) samples[mode].push(await coldStart(mode === 'preloaded'));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const line = (mode: 'preloaded' | 'fetched') => {
    const s = samples[mode];
    const requests = s.reduce((n, x) => n + x.requests, 0);
    return { requests, perStart: requests / s.length, verify: median(s.map((x) => x.verify)), total: median(s.map((x) => x.total)), load: median(s.map((x) => x.load)) };
  };
  const fetched = line('fetched');
  const preloaded = line('preloaded');
  console.log(`anchor: cold start, JWKS fetched on the first token (loopback issuer): ${fetched.perStart} JWKS request per start (${fetched.requests} in ${SAMPLES}); first verification ${fetched.verify.toFixed(2)} ms, load + verification ${fetched.total.toFixed(1)} ms (1.00x)`);
  console.log(`cold start, JWKS preloaded (FW_AUTH_JWKS): ${preloaded.perStart} JWKS requests per start (${preloaded.requests} in ${SAMPLES}); first verification ${preloaded.verify.toFixed(2)} ms (${(preloaded.verify / fetched.verify).toFixed(2)}x anchor), load + verification ${preloaded.total.toFixed(1)} ms (${(preloaded.total / fetched.total).toFixed(2)}x anchor)`);
} finally {
  server.closeAllConnections();
  server.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
