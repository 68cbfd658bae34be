import type { SecurityConfig } from '@framework/core';

export const security: SecurityConfig = {
  scopes: {
    'tasks:read': 'Read tasks',
    'tasks:write': 'Create and update tasks',
    'tasks:admin': 'Delete any task',
  },
  appClients: {
    web: { scopes: ['tasks:read', 'tasks:write', 'tasks:admin'], flows: ['authorization_code', 'refresh_token'], callbackUrls: ['http://localhost:5173/callback'] },
    reporting: { scopes: ['tasks:read'], flows: ['client_credentials'] },
  },
  // Who may hold which scope: deployed, each role is a Cognito group and its members' access tokens carry its scopes.
  roles: {
    admin: { scopes: ['tasks:read', 'tasks:write', 'tasks:admin'], description: 'Manages every task' },
    member: { scopes: ['tasks:read'], description: 'Reads tasks' },
  },
};
