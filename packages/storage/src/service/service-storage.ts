import { registerServiceExtension } from '@framework/runtime';
import { createStorageService, type StorageService } from '../client/storage-service.js';

declare module '@framework/runtime' {
  interface Service {
    /**
     * The app's buckets (from `@framework/storage`): `service.storage.bucket('uploads')`, or `service.storage.uploads`
     * once `Buckets` is augmented. S3 deployed, the dev server's local engine under `fw dev`.
     */
    readonly storage: StorageService;
  }
}

const storageFactory = (): StorageService => createStorageService();

/** Adds `service.storage` to the runtime's service object (done when this package is imported). */
export function registerStorageService(): void {
  registerServiceExtension('storage', storageFactory);
}
