import type { EnvironmentConfig } from '@framework/core';

export const dev: EnvironmentConfig = {
  preset: 'free',
  // Who can sign in on fw dev's login page (dev passwords, hashed into .fw/dev/auth/users.json on start). Deployed
  // stages have no seeded users: users live in the Cognito user pool.
  auth: {
    users: [
      { username: 'ada', password: 'dev-admin-password', roles: ['admin'], email: 'ada@example.com' },
      { username: 'mia', password: 'dev-member-password', roles: ['member'], email: 'mia@example.com' },
    ],
  },
};
