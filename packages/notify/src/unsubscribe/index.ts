export * from './unsubscribe-token.js';
export * from './one-click.js';
