/**
 * Reads the frame headers of a WebSocket client's byte stream (RFC 6455 §5.2) to find a frame larger than the
 * WebSocket API accepts: the `ws` package limits whole messages (`maxPayload`) but not single frames, while API
 * Gateway refuses any frame over 32 KB. Fed every chunk the socket receives, in order; the payload is skipped, not
 * copied.
 */
export class FrameSizeGuard {
  /** Payload bytes of the current frame still to skip. */
  private skip = 0;
  /** The bytes of a frame header split across chunks. */
  private header = Buffer.alloc(0);

  constructor(private readonly maxFrameBytes: number) {}

  /** The payload size of the first frame over the limit that starts in `chunk`, else undefined. */
  feed(chunk: Buffer): number | undefined {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - offset);
        this.skip -= n;
        offset += n;
        continue;
      }
      // At most 14 header bytes: 2, an extended length of 2 or 8, a 4-byte mask.
      const take = Math.min(14 - this.header.length, chunk.length - offset);
      const header = Buffer.concat([this.header, chunk.subarray(offset, offset + take)]);
      if (header.length < 2) {
        this.header = header;
        return undefined;
      }
      const length7 = header[1]! & 0x7f;
      const extra = length7 === 126 ? 2 : length7 === 127 ? 8 : 0;
      const headerLength = 2 + extra + (header[1]! & 0x80 ? 4 : 0);
      if (header.length < headerLength) {
        this.header = header;
        return undefined;
      }
      const payload = length7 === 126 ? header.readUInt16BE(2) : length7 === 127 ? Number(header.readBigUInt64BE(2)) : length7;
      offset += headerLength - this.header.length;
      this.header = Buffer.alloc(0);
      if (payload > this.maxFrameBytes) return payload;
      this.skip = payload;
    }
    return undefined;
  }
}
