import { registerServiceExtension } from '@framework/runtime';
import type { AuthService } from './auth-service.js';
import { createAuthService } from './create-auth-service.js';

declare module '@framework/runtime' {
  interface Service {
    /**
     * The app's users and machine clients (from `@framework/auth`): create, list, disable, delete users, set their
     * roles, sign them out everywhere; client-credentials tokens. Cognito deployed, the dev issuer under `fw dev`.
     */
    readonly auth: AuthService;
  }
}

const authFactory = (): AuthService => createAuthService();

/** Adds `service.auth` to the runtime's service object (done when this package is imported). */
export function registerAuthService(): void {
  registerServiceExtension('auth', authFactory);
}
