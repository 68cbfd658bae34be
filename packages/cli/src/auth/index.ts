export * from './route-access.js';
export * from './users-report.js';
