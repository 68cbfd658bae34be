import { expect } from 'chai';
import { defineApp } from '@framework/core';
import { referencesOf } from '../src/index.js';
import { SMALL_APP, routeSource, tempProject } from './helpers/temp-project.js';
import { permissionsOf, synthesize, type Synthesized } from './helpers/synth-once.js';

const handler = (module: string, call: string) => `import { model } from '${module}';\nexport const main = Object.assign(async () => ${call}, { handlerInfo: { kind: 'http', scopes: [], middleware: [] } });\n`;
const INVOKE = 'bedrock:InvokeModel';
const bedrockGrantOf = (s: Synthesized, name: string) => permissionsOf(s, name).statements.find((st) => [st.Action].flat().includes(INVOKE));

describe('Bedrock models: invoke granted to the functions whose code configures them, on those models only', () => {
  const project = tempProject({
    'src/lib/haiku.ts': "import { createModel } from '@framework-pro/ai';\nexport const model = createModel({ provider: 'bedrock', model: 'anthropic.claude-3-5-haiku-20241022-v1:0' });\n",
    'src/lib/nova.ts': "import { createModel } from '@framework-pro/ai';\nexport const model = createModel({ model: \"us.amazon.nova-lite-v1:0\", provider: \"bedrock\" });\n",
    'src/routes/ask/post.ts': handler('../../lib/haiku.js', "model.generate({ prompt: 'hi' })"),
    'src/functions/summarize.ts': `import { model } from '../lib/nova.js';\nexport const main = async () => model.generate({ prompt: 'sum' });\n`,
    'src/lib/chosen.ts': "import { createModel } from '@framework-pro/ai';\nexport const model = createModel({ provider: 'bedrock', model: process.env.MODEL_ID });\n",
    'src/functions/chosen.ts': `import { model } from '../lib/chosen.js';\nexport const main = async () => model.generate({ prompt: 'x' });\n`,
    'src/routes/items/get.ts': routeSource(),
    // A stand-in for the package (the temporary project has no node_modules): only its name matters to the analysis.
    'node_modules/@framework-pro/ai/package.json': JSON.stringify({ name: '@framework-pro/ai', type: 'module', main: 'index.js' }),
    'node_modules/@framework-pro/ai/index.js': 'export const createModel = (config) => ({ generate: async () => ({ text: config.model }) });\n',
  });
  let dev: Synthesized;

  before(function () {
    this.timeout(240_000);
    dev = synthesize(defineApp({ ...SMALL_APP, rootDir: project.dir }));
  });
  after(() => {
    dev?.cleanup();
    project.remove();
  });

  it('grants InvokeModel and InvokeModelWithResponseStream on the configured foundation model only', () => {
    const grant = bedrockGrantOf(dev, 'shop-dev-route-post-ask');
    expect(grant, 'the route that calls the model').to.not.equal(undefined);
    expect([grant!.Action].flat()).to.have.members(['bedrock:InvokeModel', 'bedrock:InvokeModelWithResponseStream']);
    const resources = JSON.stringify(grant!.Resource);
    expect(resources).to.contain(':bedrock:us-east-1::foundation-model/anthropic.claude-3-5-haiku-20241022-v1:0');
    expect(resources).to.not.contain('*');
    // A function that configures no model gets nothing of Bedrock.
    expect(permissionsOf(dev, 'shop-dev-route-get-items').actions.filter((a) => a.startsWith('bedrock:'))).to.deep.equal([]);
  });

  it('grants an inference profile and its model in the regions it routes to', () => {
    const resources = JSON.stringify(bedrockGrantOf(dev, 'shop-dev-fn-summarize')!.Resource);
    expect(resources).to.contain(':inference-profile/us.amazon.nova-lite-v1:0');
    expect(resources).to.contain(':bedrock:*::foundation-model/amazon.nova-lite-v1:0');
    expect(resources).to.not.contain('haiku');
  });

  it('grants every model and profile when the model id is computed at run time (acknowledged for cdk-nag)', () => {
    const resources = JSON.stringify(bedrockGrantOf(dev, 'shop-dev-fn-chosen')!.Resource);
    expect(resources).to.contain(':inference-profile/*').and.contain(':bedrock:*::foundation-model/*');
  });

  it('reads the models from the code: literals give their ids, a computed id gives all, no @framework-pro/ai gives none', () => {
    const ai = new Set(['@framework-pro/ai']);
    expect(referencesOf("createModel({ provider: 'bedrock', model: 'amazon.nova-pro-v1:0' })", ai).bedrockModels).to.deep.equal(['amazon.nova-pro-v1:0']);
    expect(referencesOf('createModel({ provider: "bedrock", model: process.env.MODEL_ID })', ai).bedrockModels).to.equal('all');
    expect(referencesOf("createModel({ provider: 'bedrock', model })", ai).bedrockModels).to.equal('all');
    expect(referencesOf("createModel({ provider: 'mock' })", ai).bedrockModels).to.equal(undefined);
    expect(referencesOf("createModel({ provider: 'bedrock', model: 'amazon.nova-pro-v1:0' })").bedrockModels).to.equal(undefined);
  });
});
