import { Project } from 'projen';
import { ManagedTsFile, renderLiteral, toLiteralObject } from '../files';
import { OAuthFlow } from '../intents';
import { AppIntents } from './app-intents';

/** `config/security.ts`: the OAuth scopes, the app clients and the roles, in core's shape. */
export class SecurityConfigFile extends ManagedTsFile {
  constructor(project: Project, intents: AppIntents) {
    super(project, 'config/security.ts', () => renderSecurity(intents));
  }
}

function renderSecurity(intents: AppIntents): string {
  const security = {
    scopes: Object.fromEntries(intents.scopes.map((s) => [s.name, s.description])),
    appClients: intents.appClients.length
      ? Object.fromEntries(
          intents.appClients.map((c) => [
            c.name,
            toLiteralObject({ scopes: c.scopes, flows: c.flows ?? [OAuthFlow.CLIENT_CREDENTIALS], callbackUrls: c.callbackUrls, logoutUrls: c.logoutUrls, generateSecret: c.generateSecret }),
          ]),
        )
      : undefined,
    roles: intents.roles.length
      ? Object.fromEntries(intents.roles.map((r) => [r.name, toLiteralObject({ scopes: r.scopes, description: r.description })]))
      : undefined,
  };
  return [
    `import type { SecurityConfig } from '@framework/core';`,
    '',
    '/** OAuth scopes (what a token may do) and app clients (who may ask for which scopes). */',
    `const security: SecurityConfig = ${renderLiteral(security)};`,
    '',
    'export default security;',
    '',
  ].join('\n');
}
