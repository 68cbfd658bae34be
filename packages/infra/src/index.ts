/**
 * @framework/infra: the app model as CDK constructs. `FrameworkStack` turns one stage of `defineApp(...)` into a
 * CloudFormation stack; `synthesizeApp` adds the checks and writes the cloud assembly.
 */
export * from './errors.js';
export * from './bundling/index.js';
export * from './stack/index.js';
export * from './network/index.js';
export * from './databases/index.js';
export * from './storage/index.js';
export * from './auth/index.js';
export * from './queues/index.js';
export * from './idempotency/index.js';
export * from './integrations/index.js';
export * from './ai/index.js';
export * from './functions/index.js';
export * from './http-api/index.js';
export * from './ws-api/index.js';
export * from './notify/index.js';
export * from './checks/index.js';
export * from './synth/index.js';
