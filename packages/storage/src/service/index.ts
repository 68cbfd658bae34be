export { registerStorageService } from './service-storage.js';
