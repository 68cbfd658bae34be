/** The app's generated types: `.fw/types/app.d.ts` from the app model (typed service ids, `invoke`, scopes). */
export { APP_TYPES_FILE, appTypesDeclaration, type AppTypesSource } from './app-types-declaration.js';
export { writeAppTypes } from './write-app-types.js';
