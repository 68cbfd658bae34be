import type { EnvironmentConfig } from '@framework/core';

export const dev: EnvironmentConfig = {
  preset: 'free',
  // Who can sign in on fw dev's login page (dev passwords, hashed into .fw/dev/auth/users.json on start). Deployed
  // stages have no seeded users: users live in the Cognito user pool.
  auth: {
    users: [
      // Both of the tenant acme: their tokens carry `custom:tenant_id: acme`, which the tenancy middleware reads.
      { username: 'ada', password: 'dev-admin-password', roles: ['admin'], email: 'ada@example.com', tenant: 'acme' },
      { username: 'mia', password: 'dev-member-password', roles: ['member'], email: 'mia@example.com', tenant: 'acme' },
    ],
  },
};
