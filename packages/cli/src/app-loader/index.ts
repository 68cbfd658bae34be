/** The app loader: a project's `fw.config.ts` compiled and imported into its app model (for every command). */
export { findConfigFile, loadApp, loadAppWithInputs, type LoadedApp } from './load-app.js';
