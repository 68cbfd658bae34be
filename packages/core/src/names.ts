/**
 * `@framework/core/names`: unit names and environment-variable names only. Free of io-ts and of the file system, so
 * the runtime can import it into a Lambda bundle.
 */
export * from './naming/index.js';
export * from './environment/index.js';
export { FrameworkError, NamingError } from './errors.js';
