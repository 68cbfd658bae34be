import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { build } from 'esbuild';

const src = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');

/** KB each package adds to a route's bundle (esm, minified, as a function is bundled), from esbuild's metafile. */
async function packageBytes(route: string): Promise<Map<string, number>> {
  const result = await build({ entryPoints: [path.join(src, 'routes', route)], bundle: true, write: false, platform: 'node', format: 'esm', minify: true, metafile: true, external: ['@aws-sdk/*', 'pg-native'], mainFields: ['module', 'main'], outdir: 'out', logLevel: 'silent' });
  const bytes = new Map<string, number>();
  for (const [input, info] of Object.entries(Object.values(result.metafile.outputs)[0]!.inputs)) {
    const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1];
    if (name && info.bytesInOutput > 0) bytes.set(name, (bytes.get(name) ?? 0) + info.bytesInOutput);
  }
  return bytes;
}

describe('tasks-api route bundles keep out what the route does not use', function () {
  this.timeout(120_000);

  it('PUT /tasks/{id}/assignee carries neither the Stripe SDK nor rate-limiter-flexible (the pro packages list only their index as having effects)', async () => {
    // The route imports @framework-pro/billing (through src/lib/notify.ts) for its receipt template only, and
    // @framework-pro/tenancy for its middleware, not the quota counters: 510 KB with both, 184 KB without.
    const bytes = await packageBytes('tasks/[id]/assignee/put.ts');
    expect(bytes.get('pg')).to.be.greaterThan(0);
    expect(bytes.has('stripe')).to.equal(false);
    expect(bytes.has('rate-limiter-flexible')).to.equal(false);
  });

  it('POST /billing/checkout, which calls Stripe, still carries its SDK', async () => {
    expect((await packageBytes('billing/checkout/post.ts')).get('stripe')).to.be.greaterThan(100 * 1024);
  });
});
