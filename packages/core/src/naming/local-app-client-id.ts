import { createHash } from 'node:crypto';

/**
 * The id `fw dev` gives an app client: 26 lower-case letters and digits, as Cognito's app client ids, derived from
 * project, stage and client name (stable across restarts, different per project and stage). Tokens carry it in
 * `client_id` and `FW_AUTH_AUDIENCE` lists these ids, as deployed, where they are the user pool clients' ids: code
 * that compares a token's client to the audience, or keys state by client id, works the same in both places.
 */
export function localAppClientId(project: string, stage: string, clientName: string): string {
  const digest = createHash('sha256').update(`${project}\0${stage}\0${clientName}`).digest();
  return BigInt(`0x${digest.toString('hex')}`).toString(36).padStart(26, '0').slice(0, 26);
}
