export * from './project-license.js';
