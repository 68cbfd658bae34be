import { HttpError, wsClient } from '@framework/runtime';
import type { StreamResult, TokenUsage } from './create-model.js';

/** What a WebSocket client receives while a model answers. */
export type AiStreamMessage =
  | { readonly type: 'ai.delta'; readonly id: string; readonly delta: string }
  | { readonly type: 'ai.done'; readonly id: string; readonly text: string; readonly usage: { readonly inputTokens: number; readonly outputTokens: number; readonly totalTokens: number } }
  /** The answer failed: the code of an HTTP error (`AI_BUDGET_EXCEEDED`, ...) with its message, else `INTERNAL` (no internal message). */
  | { readonly type: 'ai.error'; readonly id: string; readonly code: string; readonly message: string };

/** Options of `streamToWebSocket`. */
export interface StreamToWebSocketOptions {
  /**
   * An id the client matches deltas with (several answers may stream on one connection).
   * @default - a random UUID
   */
  readonly id?: string;
  /**
   * How a message is sent.
   * @default - the runtime's `wsClient().send` (the API Gateway management API deployed, the dev server locally)
   */
  readonly send?: (connectionId: string, message: AiStreamMessage) => Promise<void>;
}

/**
 * Sends a streamed answer to one WebSocket connection: one `ai.delta` message per text part as it arrives, then
 * `ai.done` with the whole text and the tokens; when the answer fails, `ai.error` (then the error is thrown). Returns the
 * text. (HTTP routes answer in one piece: the runtime's
 * HTTP API integration has no streamed responses, so a streamed answer goes to a WebSocket.)
 */
export async function streamToWebSocket(stream: StreamResult, connectionId: string, options: StreamToWebSocketOptions = {}): Promise<string> {
  const id = options.id ?? crypto.randomUUID();
  const send = options.send ?? ((to: string, message: AiStreamMessage) => wsClient().send(to, message));
  let text: string;
  let usage: TokenUsage;
  try {
    for await (const delta of stream.textStream) await send(connectionId, { type: 'ai.delta', id, delta });
    [text, usage] = await Promise.all([stream.text, stream.usage]);
  } catch (error) {
    // The client learns the answer ended (and why, when the reason is its to know), then the caller gets the error.
    const known = error instanceof HttpError && error.status < 500 ? { code: error.code, message: error.message } : error instanceof HttpError ? { code: error.code, message: 'The AI model is busy: retry later.' } : { code: 'INTERNAL', message: 'The answer failed.' };
    await send(connectionId, { type: 'ai.error', id, ...known }).catch(() => undefined);
    throw error;
  }
  await send(connectionId, { type: 'ai.done', id, text, usage });
  return text;
}
