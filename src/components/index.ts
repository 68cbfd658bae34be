export * from './app-intents';
export * from './base-config-file';
export * from './framework-tasks';
export * from './fw-config-file';
export * from './mocha-config';
export * from './sample-files';
export * from './security-config-file';
export * from './stage-config-file';
