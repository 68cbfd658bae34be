import type { AppClientConfig } from '@framework/core';

const USER_FLOWS = ['authorization_code', 'implicit', 'user_password', 'user_srp'];

/** Whether an app client only gets machine (client-credentials) tokens: no user signs in through it. */
export function isMachineClient(client: AppClientConfig): boolean {
  return client.flows.includes('client_credentials') && !client.flows.some((f) => USER_FLOWS.includes(f));
}
