/**
 * `@framework/core/names`: unit names, environment-variable names (each kind's, from its module), the dev server's
 * paths, the handler-info reader and the "did you mean" helper only. Free of io-ts and of the file system, so the
 * runtime can import it into a Lambda bundle (and the `fw` command line starts without the config codecs).
 */
export * from './naming/index.js';
export * from './environment/index.js';
export * from './intents/index.js';
export * from './handlers/index.js';
export { FrameworkError, NamingError, isFrameworkError } from './errors.js';
export { closestName } from './naming/closest-name.js';
