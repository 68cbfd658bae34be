import { UnreadableEventError } from '../errors.js';
import type { SuppressionList } from './suppression-list.js';

/** The opt-out keywords carriers and End User Messaging honour (English defaults; a phone pool may add more). */
export const OPT_OUT_KEYWORDS: readonly string[] = Object.freeze(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'OPT-OUT', 'REVOKE', 'ARRET']);
/** The keywords that opt a number back in. */
export const OPT_IN_KEYWORDS: readonly string[] = Object.freeze(['START', 'UNSTOP', 'YES', 'OPTIN']);

/** What an inbound SMS keyword does to the number's suppression. */
export type KeywordAction = 'opt-out' | 'opt-in' | 'none';

/** The action of an inbound message: its first word, ignoring case and punctuation around it. */
export function keywordActionOf(body: string): KeywordAction {
  const word = body.trim().split(/\s+/)[0]?.replace(/[^A-Za-z-]/g, '').toUpperCase() ?? '';
  if (OPT_OUT_KEYWORDS.includes(word)) return 'opt-out';
  if (OPT_IN_KEYWORDS.includes(word)) return 'opt-in';
  return 'none';
}

/** An inbound SMS as End User Messaging publishes it to the two-way channel's SNS topic. */
export interface InboundSms {
  readonly from: string;
  readonly to: string;
  readonly body: string;
}

/** The inbound messages of an SNS Lambda event (or one bare message). */
export function inboundSmsOf(event: unknown): InboundSms[] {
  const root = event as { Records?: { Sns?: { Message?: unknown } }[] } | null;
  const messages = Array.isArray(root?.Records) ? root.Records.map((r) => r?.Sns?.Message) : [JSON.stringify(event)];
  return messages.map((message) => {
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(String(message)) as Record<string, unknown>;
    } catch {
      throw new UnreadableEventError('inbound SMS', 'Sns.Message is not JSON');
    }
    const { originationNumber, destinationNumber, messageBody } = parsed ?? {};
    if (typeof originationNumber !== 'string' || typeof messageBody !== 'string') throw new UnreadableEventError('inbound SMS', 'no originationNumber or messageBody');
    return { from: originationNumber, to: typeof destinationNumber === 'string' ? destinationNumber : '', body: messageBody };
  });
}

/**
 * Applies STOP / START to our suppression list. End User Messaging keeps its own opt-out list and refuses to send to
 * an opted-out number anyway; keeping ours in step lets the dispatcher fail such a message before the API call, and
 * the same rule runs locally, where there is no End User Messaging.
 */
export async function applySmsKeyword(list: SuppressionList, message: InboundSms): Promise<KeywordAction> {
  const action = keywordActionOf(message.body);
  if (action === 'opt-out') await list.add('sms', message.from, 'opted-out', { keyword: message.body.trim().slice(0, 32) });
  if (action === 'opt-in') await list.remove('sms', message.from);
  return action;
}

/** The handler of the two-way SMS topic: applies every message's keyword. */
export function inboundSmsHandler(options: { readonly suppressions: () => SuppressionList | Promise<SuppressionList> }): (event: unknown) => Promise<{ readonly actions: KeywordAction[] }> {
  return async (event) => {
    const list = await options.suppressions();
    const actions: KeywordAction[] = [];
    for (const message of inboundSmsOf(event)) actions.push(await applySmsKeyword(list, message));
    return { actions };
  };
}
