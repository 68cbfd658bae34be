export * from './intents';
export * from './security';
export * from './stages';
export * from './billing';
