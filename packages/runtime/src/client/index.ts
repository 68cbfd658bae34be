/**
 * `@framework/runtime/client`: what a front end (browser) or another Node process imports to talk to an app. Nothing
 * in this graph imports a Node built-in or the AWS SDK, so it bundles for the browser.
 */
export * from './ws/index.js';
export * from './http/index.js';
