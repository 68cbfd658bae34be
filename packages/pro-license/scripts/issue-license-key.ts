/**
 * The vendor's tool: issues a license key. The private key comes from the environment (`FW_LICENSE_PRIVATE_KEY`, a
 * PKCS#8 PEM) and is never committed; the public half is `src/shipped-public-key.ts`.
 *
 *   FW_LICENSE_PRIVATE_KEY="$(cat vendor-private.pem)" npx tsx scripts/issue-license-key.ts \
 *     --licensee "Acme GmbH" --packages tenancy,billing --expires 2027-12-31 [--releases-before 2027-12-31] [--features sso]
 *   npx tsx scripts/issue-license-key.ts --new-key-pair   # a new pair: the PEM private key, then the public JWK
 *
 * Prints the key on stdout (nothing else), so `$(...)` captures it.
 */
import { generateKeyPairSync } from 'node:crypto';
import { parseArgs } from 'node:util';
import { signLicenseKey } from '../src/index.js';

function fail(message: string): never {
  process.stderr.write(`issue-license-key: ${message}\n`);
  process.exit(2);
}

function seconds(date: string, name: string): number {
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(date) ? `${date}T00:00:00Z` : date);
  if (Number.isNaN(ms)) fail(`--${name} ${JSON.stringify(date)} is not a date; use YYYY-MM-DD or an ISO 8601 time`);
  return Math.floor(ms / 1000);
}

const { values } = parseArgs({
  options: {
    licensee: { type: 'string' },
    packages: { type: 'string' },
    features: { type: 'string' },
    expires: { type: 'string' },
    'releases-before': { type: 'string' },
    'new-key-pair': { type: 'boolean' },
  },
});

if (values['new-key-pair']) {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  process.stdout.write(`${privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()}${JSON.stringify(publicKey.export({ format: 'jwk' }))}\n`);
  process.exit(0);
}

const privateKey = process.env['FW_LICENSE_PRIVATE_KEY'];
if (!privateKey) fail('FW_LICENSE_PRIVATE_KEY is not set; export the vendor private key (PKCS#8 PEM) in the environment');
if (!values.licensee) fail('--licensee is required (who the key is issued to)');
if (!values.packages) fail('--packages is required: a comma-separated list (tenancy,billing,ai,chat) or "*"');
if (!values.expires) fail('--expires is required (YYYY-MM-DD)');
const list = (value: string | undefined) => (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);

try {
  const key = signLicenseKey(
    {
      licensee: values.licensee,
      packages: list(values.packages),
      ...(values.features ? { features: list(values.features) } : {}),
      iat: Math.floor(Date.now() / 1000),
      exp: seconds(values.expires, 'expires'),
      ...(values['releases-before'] ? { releasesBefore: seconds(values['releases-before'], 'releases-before') } : {}),
    },
    privateKey.replace(/\\n/g, '\n'),
  );
  process.stdout.write(`${key}\n`);
} catch (error) {
  fail((error as Error).message);
}
