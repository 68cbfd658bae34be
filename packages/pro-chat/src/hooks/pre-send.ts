import { ChatConfigError, ChatHttpError } from '../errors.js';

/** A message about to be sent, as the pre-send hook sees it. */
export interface PreSendDraft {
  readonly roomId: string;
  readonly sender: string;
  readonly text: string;
  readonly attachments: readonly string[];
  readonly parentId: string | null;
}

/**
 * What the hook decides: nothing (send as is), `{ text }` (send this text instead: redaction), or `{ reject }` (refuse
 * with `CHAT_MESSAGE_REJECTED` and this reason).
 */
export type PreSendVerdict = void | undefined | { readonly text: string } | { readonly reject: string };

/** Moderation or redaction, in process, before anything is written. */
export type PreSendHook = (draft: PreSendDraft) => PreSendVerdict | Promise<PreSendVerdict>;

/** The longest budget a hook may get: a send waits for it. */
export const MAX_PRE_SEND_BUDGET_MS = 10_000;

export function checkPreSendBudget(budgetMs: number): number {
  if (!Number.isInteger(budgetMs) || budgetMs <= 0 || budgetMs > MAX_PRE_SEND_BUDGET_MS) {
    throw new ChatConfigError('FW_ERR_CHAT_INVALID_OPTIONS', `preSendBudgetMs must be a whole number of milliseconds from 1 to ${MAX_PRE_SEND_BUDGET_MS}, got ${String(budgetMs)}`);
  }
  return budgetMs;
}

/**
 * Runs the hook within its budget and returns the text to send. A hook that takes longer refuses the message
 * (`CHAT_PRE_SEND_TIMEOUT`): moderation fails closed, and the client's retry (same client message id) runs it again.
 * A hook that throws is the app's bug: it propagates (a 500 without its message).
 */
export async function runPreSend(hook: PreSendHook | undefined, budgetMs: number, draft: PreSendDraft): Promise<string> {
  if (!hook) return draft.text;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), budgetMs);
  });
  try {
    const verdict = await Promise.race([Promise.resolve().then(() => hook(draft)), timeout]);
    if (verdict === 'timeout') throw new ChatHttpError('CHAT_PRE_SEND_TIMEOUT', `The message was not sent: its moderation check did not finish within ${budgetMs} ms. Retry with the same clientMessageId.`);
    if (verdict && 'reject' in verdict) throw new ChatHttpError('CHAT_MESSAGE_REJECTED', `The message was refused: ${verdict.reject}`);
    if (verdict && 'text' in verdict) return verdict.text;
    return draft.text;
  } finally {
    clearTimeout(timer);
  }
}
