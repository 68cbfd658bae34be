/** ReadyForQuery: the last message the server sends for a Sync, a simple Query or the start-up. */
const READY_FOR_QUERY = 0x5a; // 'Z'

/**
 * Follows the messages of a server's answer to one client message (each a type byte and a 4-byte length that counts
 * itself, then the body), across chunks, and tells whether the answer ended with ReadyForQuery: the exchange is then
 * over, and the session may serve another connection. Message boundaries are followed, not guessed from the last
 * bytes, so a row whose data happens to end like a ReadyForQuery does not end the exchange.
 */
export class ProtocolExchange {
  private readonly header = new Uint8Array(5);
  private headerLength = 0;
  /** Bytes of the current message's body not seen yet. */
  private bodyLeft = 0;
  private lastType = 0;

  /** Feeds the next chunk of the server's answer. */
  see(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.bodyLeft > 0) {
        const skipped = Math.min(this.bodyLeft, chunk.length - at);
        this.bodyLeft -= skipped;
        at += skipped;
        continue;
      }
      this.header[this.headerLength++] = chunk[at++]!;
      if (this.headerLength === 5) {
        this.lastType = this.header[0]!;
        const length = ((this.header[1]! << 24) | (this.header[2]! << 16) | (this.header[3]! << 8) | this.header[4]!) >>> 0;
        this.bodyLeft = Math.max(0, length - 4);
        this.headerLength = 0;
      }
    }
  }

  /** Whether everything seen so far is whole messages, the last one ReadyForQuery. */
  get endedWithReadyForQuery(): boolean {
    return this.lastType === READY_FOR_QUERY && this.bodyLeft === 0 && this.headerLength === 0;
  }
}
