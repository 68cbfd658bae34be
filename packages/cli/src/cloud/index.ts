export * from './assembly-summary.js';
export * from './cloud-app.js';
export * from './cloud-options.js';
export * from './credentials.js';
export * from './progress-io-host.js';
export * from './synth-context.js';
export * from './synthesize-stage.js';
