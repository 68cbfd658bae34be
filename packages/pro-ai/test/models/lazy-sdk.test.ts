import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const INDEX = new URL('../../src/index.ts', import.meta.url).href;
const RECORDER = fileURLToPath(new URL('../support/record-loaded-modules.mjs', import.meta.url));
/** The ai SDK and its provider packages, wherever npm put them. */
const SDK = /\/node_modules\/(ai|@ai-sdk\/[^/]+)\//;

/** Runs `code` (an ES module body, after the package's import as `ai`) in a fresh node; returns the modules it loaded. */
async function modulesLoadedBy(code: string): Promise<string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fw-ai-modules-'));
  const out = path.join(dir, 'modules.txt');
  try {
    const script = `const ai = await import(${JSON.stringify(INDEX)});\n${code}`;
    await run(process.execPath, ['--import', 'tsx', '--import', RECORDER, '--input-type=module', '-e', script], {
      env: { ...process.env, FW_RECORD_MODULES: out },
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
    });
    return readFileSync(out, 'utf8').split('\n').filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the ai SDK loads at the first model call, not at import', function () {
  this.timeout(120_000);

  it('importing the package, configuring a model, an agent with a tool and a store loads neither the SDK nor a provider', async () => {
    const loaded = await modulesLoadedBy(`
      const { z } = await import('zod');
      const model = ai.createModel({ provider: 'mock' });
      ai.createModel({ provider: 'bedrock', model: 'us.amazon.nova-lite-v1:0' });
      ai.defineAgent({ name: 'a', model, tools: { look: ai.defineTool({ description: 'looks', parameters: z.object({ id: z.string() }), execute: async () => 1 }) } });
      ai.createLocalEmbedder();
    `);
    // The recorder saw the package itself (so an empty list below means something).
    expect(loaded.some((url) => url.endsWith('/pro-ai/src/index.ts'))).to.equal(true);
    expect(loaded.filter((url) => SDK.test(url))).to.deep.equal([]);
  });

  it('the first model call loads it (what the check above would see if the import did)', async () => {
    const loaded = await modulesLoadedBy(`
      const { text } = await ai.createModel({ provider: 'mock' }).generate({ prompt: 'hello' });
      if (text !== 'mock: hello') throw new Error('unexpected answer ' + text);
    `);
    expect(loaded.some((url) => /\/node_modules\/ai\//.test(url))).to.equal(true);
  });
});
