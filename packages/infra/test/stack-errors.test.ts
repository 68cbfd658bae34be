import { expect } from 'chai';
import { App, Stack } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { defineApp, type SecurityConfig } from '@framework/core';
import { FrameworkStack, IntentOutputs, buildCdkApp } from '../src/index.js';
import { SMALL_APP, routeSource, tempProject } from './helpers/temp-project.js';

describe('FrameworkStack refuses what cannot deploy', () => {
  function build(files: Record<string, string>, options: { auth?: boolean; security?: SecurityConfig } = {}): () => void {
    const project = tempProject(files);
    return () => {
      try {
        const app = defineApp({ ...SMALL_APP, security: options.security ?? SMALL_APP.security, rootDir: project.dir, infrastructure: options.auth === false ? {} : { auth: {} } });
        new FrameworkStack(new App(), 'Test', { app });
      } finally {
        project.remove();
      }
    };
  }

  it('a scoped route in an app without an auth intent', () => {
    expect(build({ 'src/routes/a/get.ts': routeSource(['items:read']) }, { auth: false }))
      .to.throw(/GET \/a \(src\/routes\/a\/get\.ts\) requires scopes items:read, but the app has no auth intent.*Add `auth: \{\}`/)
      .with.property('code', 'FW_ERR_INFRA_SCOPES_WITHOUT_AUTH');
  });

  it('a route requiring a scope the security config does not declare', () => {
    expect(build({ 'src/routes/a/get.ts': routeSource(['items:wirte']) }))
      .to.throw(/requires items:wirte, which config\/security\.ts does not declare \(declared: items:read\)/)
      .with.property('code', 'FW_ERR_INFRA_UNDECLARED_SCOPE');
  });

  it('an app client mixing client_credentials with a browser flow', () => {
    const security: SecurityConfig = { scopes: { 'items:read': 'Read' }, appClients: { mixed: { scopes: ['items:read'], flows: ['client_credentials', 'authorization_code'] } } };
    expect(build({ 'src/routes/a/get.ts': routeSource() }, { security }))
      .to.throw(/App client "mixed" combines client_credentials with authorization_code.*Split it into two app clients/)
      .with.property('code', 'FW_ERR_INFRA_APP_CLIENT_FLOWS');
  });

  it('a function in an isolated subnet calling a service the VPC cannot reach', () => {
    // Given a free-preset app (no NAT) whose database-using route also imports an SDK client with no known endpoint
    const project = tempProject({
      'src/routes/a/get.ts': "import pg from 'pg';\nimport { FooClient } from '@aws-sdk/client-foo';\nexport const pool = () => new pg.Pool();\nexport const foo = () => new FooClient({});\n" + routeSource(),
      'src/routes/b/get.ts': routeSource(),
    });
    try {
      const app = defineApp({ ...SMALL_APP, rootDir: project.dir, infrastructure: { databases: [{ id: 'main' }] } });
      const handlerInfo = new Map(app.units.map((u) => [u.functionName, { kind: 'http' as const, scopes: [], middleware: [] }]));
      // pg stays external: the temporary project has no node_modules.
      const bundleOptions = { external: ['@aws-sdk/*', 'pg'] };
      // Then synth fails naming the function, the service and the fix
      expect(() => new FrameworkStack(new App(), 'Test', { app, handlerInfo, bundleOptions }))
        .to.throw(/shop-dev-route-get-a \(src\/routes\/a\/get\.ts\) imports @aws-sdk\/client-foo, but the framework knows no VPC endpoint for it[\s\S]*Set network\.natGateways to 1 or more/)
        .with.property('code', 'FW_ERR_INFRA_UNREACHABLE_SERVICE');
      // And with a NAT gateway the same app synthesizes
      const withNat = defineApp({ ...SMALL_APP, envs: { dev: { preset: 'free', overrides: { network: { natGateways: 1 } } } }, rootDir: project.dir, infrastructure: { databases: [{ id: 'main' }] } });
      expect(() => new FrameworkStack(new App(), 'Test', { app: withNat, handlerInfo, bundleOptions })).to.not.throw();
    } finally {
      project.remove();
    }
  });

  it("a function in an isolated subnet calling service.auth on a pool with a domain: Cognito's VPC endpoint does not serve it", () => {
    // Given a free-preset app (no NAT) whose database-using route calls service.auth
    const project = tempProject({
      'src/routes/users/post.ts':
        "import pg from 'pg';\nexport const pool = () => new pg.Pool();\nexport const main = Object.assign(async (event: any, _c: unknown, service: any) => service.auth.createUser(JSON.parse(event.body)), { handlerInfo: { kind: 'http', scopes: [], middleware: [] } });\n",
    });
    const bundleOptions = { external: ['@aws-sdk/*', 'pg'] };
    const synth = (flows: readonly ('user_srp' | 'authorization_code')[]) => () => {
      const security: SecurityConfig = { ...SMALL_APP.security, appClients: { web: { scopes: ['items:read'], flows: [...flows], ...(flows.includes('authorization_code') ? { callbackUrls: ['https://app.example.com/callback'] } : {}) } } };
      const app = defineApp({ ...SMALL_APP, security, rootDir: project.dir, infrastructure: { databases: [{ id: 'main' }], auth: {} } });
      const handlerInfo = new Map(app.units.map((u) => [u.functionName, { kind: 'http' as const, scopes: [], middleware: [] }]));
      return new FrameworkStack(new App(), 'Test', { app, handlerInfo, bundleOptions });
    };
    try {
      // When its pool has no domain (no OAuth client), the VPC gets Cognito's endpoint
      const stack = synth(['user_srp'])();
      expect([...stack.network!.interfaceEndpoints.keys()]).to.include('cognito-idp');
      // When a browser client gives the pool a domain, synth fails naming the function, why, and the fix
      expect(synth(['authorization_code']))
        .to.throw(/shop-dev-route-post-users \(src\/routes\/users\/post\.ts\) calls service\.auth, but Cognito's VPC endpoint serves no request for a user pool with a domain[\s\S]*Set network\.natGateways to 1 or more/)
        .with.property('code', 'FW_ERR_INFRA_UNREACHABLE_SERVICE');
    } finally {
      project.remove();
    }
  });

  it('a route shard count it cannot use', () => {
    const project = tempProject({ 'src/routes/a/get.ts': routeSource() });
    try {
      const app = defineApp({ ...SMALL_APP, rootDir: project.dir, infrastructure: {} });
      expect(() => new FrameworkStack(new App(), 'Test', { app, routeShards: 0 })).to.throw(/routeShards must be an integer from 1 to 100, got 0/).with.property('code', 'FW_ERR_INFRA_INVALID_PROP');
    } finally {
      project.remove();
    }
  });

  it('a variable whose intent output the constructs do not provide', () => {
    const outputs = new IntentOutputs();
    expect(() => outputs.resolve({ FW_X: { kind: 'output', intent: 'databases', id: 'main', output: 'replicaHost' } }))
      .to.throw(/FW_X needs output "replicaHost" of databases "main"/)
      .with.property('code', 'FW_ERR_INFRA_UNKNOWN_OUTPUT');
  });
});

describe('cdk-nag checks', () => {
  it('fail the synth on a finding nobody acknowledged', function () {
    this.timeout(60_000);
    // Given an app whose stack gains a bucket the framework did not configure (no TLS enforcement, no logs)
    const project = tempProject({ 'src/routes/a/get.ts': routeSource() });
    try {
      const app = defineApp({ ...SMALL_APP, rootDir: project.dir, infrastructure: {} });
      const { cdkApp, stack } = buildCdkApp(app, { outdir: `${project.dir}/cdk.out` });
      new s3.Bucket(new Stack(cdkApp, 'Extra'), 'Unchecked');
      void stack;
      // When it is synthesized, then the AwsSolutions pack stops it
      expect(() => cdkApp.synth()).to.throw(/Validation failed/);
    } finally {
      project.remove();
    }
  });
});
