export { registerDataService } from './service-db.js';
