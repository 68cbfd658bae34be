import { expect } from 'chai';
import { App } from 'aws-cdk-lib';
import { defineApp, type AppDefinition } from '@framework/core';
import { FrameworkStack, MAX_RESOURCES_PER_STACK, bundleApp, readHandlerInfo, routeShardOf, DEFAULT_ROUTE_SHARDS } from '../src/index.js';
import { resourcesOf, synthesize, type Synthesized } from './helpers/synth-once.js';
import { SMALL_APP, routeSource, tempProject } from './helpers/temp-project.js';

/** A generated app: `count` resources with a GET each, every third one scoped. */
function writeRoutes(project: ReturnType<typeof tempProject>, from: number, to: number): void {
  for (let i = from; i < to; i++) project.write(`src/routes/items${i}/[id]/get.ts`, routeSource(i % 3 === 0 ? ['items:read'] : []));
}

describe('a 300-route app', () => {
  const project = tempProject({});
  let app: AppDefinition;
  let synthesized: Synthesized;

  before(function () {
    this.timeout(300_000);
    writeRoutes(project, 0, 300);
    app = defineApp({ ...SMALL_APP, rootDir: project.dir, infrastructure: { auth: {} } });
    synthesized = synthesize(app);
  });
  after(() => {
    synthesized?.cleanup();
    project.remove();
  });

  it('synthesizes every route, with every stack under the resource limit', () => {
    expect(resourcesOf(synthesized, 'AWS::ApiGatewayV2::Route')).to.have.length(300);
    expect(resourcesOf(synthesized, 'AWS::Lambda::Function').filter((f) => String(f.properties.FunctionName).startsWith('shop-dev-route-'))).to.have.length(300);
    for (const template of synthesized.all) {
      const count = Object.keys(template.toJSON().Resources as object).length;
      expect(count).to.be.below(MAX_RESOURCES_PER_STACK);
    }
    expect(synthesized.stack.routeShards.size).to.be.greaterThan(1);
  });

  it('puts each route in the shard its route key hashes to', () => {
    for (const route of app.routes) {
      const fn = synthesized.stack.functions.get(route.functionName)!;
      const shard = synthesized.stack.routeShards.get(routeShardOf(route.routeKey, DEFAULT_ROUTE_SHARDS))!;
      expect(fn.node.scope, route.routeKey).to.equal(shard);
    }
  });

  it('never moves an existing route when a route is added', function () {
    this.timeout(120_000);
    const placement = (definition: AppDefinition) => {
      const bundle = bundleApp(definition);
      const stack = new FrameworkStack(new App(), 'Check', { app: definition, bundle, handlerInfo: readHandlerInfo(definition, bundle) });
      return new Map(definition.routes.map((r) => [r.routeKey, stack.functions.get(r.functionName)!.node.path]));
    };
    const before = placement(app);
    writeRoutes(project, 300, 301);
    const grown = defineApp({ ...SMALL_APP, rootDir: project.dir, infrastructure: { auth: {} } });
    const after = placement(grown);
    expect(after.size).to.equal(301);
    for (const [key, where] of before) expect(after.get(key), key).to.equal(where);
  });
});
