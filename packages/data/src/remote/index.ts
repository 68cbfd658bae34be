/** `@framework/data/remote`: reach a deployed stage's migration function (used by `fw migrate --stage`). */
export { invokeMigrationFunction, type InvokeMigrationOptions } from './invoke-migration-function.js';
