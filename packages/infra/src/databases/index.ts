export * from './app-database.js';
export * from './database-migrations.js';
export * from './engine-versions.js';
