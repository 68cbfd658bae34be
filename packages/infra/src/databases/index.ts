export * from './app-database.js';
export * from './database-migrations.js';
