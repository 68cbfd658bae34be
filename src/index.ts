/**
 * `@framework/projen`: the projen project type of framework apps (`FrameworkApp`), its intent structs and the
 * project templates.
 */
export * from './framework-app';
export * from './intents';
export * from './templates';
