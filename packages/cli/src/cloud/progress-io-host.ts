import type { IIoHost, IoMessage, IoRequest } from '@aws-cdk/toolkit-lib';

/** Where progress goes; tests pass their own. */
export interface ProgressOutput {
  write(text: string): void;
}

const SHOWN_LEVELS = new Set(['error', 'result', 'warn', 'info']);

/**
 * Prints the toolkit's messages as progress (stack events, diffs, outputs) and answers its questions with their
 * default: `fw` asks its own confirmations (destroy) before calling the toolkit, so the toolkit never waits on input.
 */
export class ProgressIoHost implements IIoHost {
  constructor(private readonly out: ProgressOutput = { write: (t) => process.stderr.write(t) }, private readonly verbose = false) {}

  public async notify(msg: IoMessage<unknown>): Promise<void> {
    if (!this.verbose && !SHOWN_LEVELS.has(msg.level)) return;
    const text = msg.message.trimEnd();
    if (text) this.out.write(`${text}\n`);
  }

  public async requestResponse<T>(msg: IoRequest<unknown, T>): Promise<T> {
    await this.notify(msg);
    return msg.defaultResponse;
  }
}
