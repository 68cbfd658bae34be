export { COMMANDS } from './commands/registry.js';
