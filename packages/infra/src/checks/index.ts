export * from './nag-suppressions.js';
