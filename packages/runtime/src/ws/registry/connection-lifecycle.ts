import type { AuthInfo } from '../../context/auth.js';
import type { Logger } from '../../logger/logger.js';
import { connectionRecord } from './connection-registry.js';
import { connectionRegistry } from './default-connection-registry.js';

/** `$connect` accepted: the registry records the connection, with its caller's subject, for 2 hours. */
export async function recordConnection(event: { readonly requestContext: { readonly connectionId: string; readonly connectedAt?: number } }, auth: AuthInfo | undefined): Promise<void> {
  const { connectionId, connectedAt } = event.requestContext;
  await (await connectionRegistry()).register(connectionRecord(connectionId, typeof connectedAt === 'number' ? connectedAt : Date.now(), auth?.subject));
}

/** `$disconnect`: the registry forgets the connection and its subscriptions; a failure is logged (the row expires within 2 hours). */
export async function forgetConnection(connectionId: string, log: () => Logger): Promise<void> {
  try {
    await (await connectionRegistry()).remove(connectionId);
  } catch (error) {
    log().warn('Could not remove the closed WebSocket connection from the registry (it expires within 2 hours)', { connectionId, error });
  }
}
