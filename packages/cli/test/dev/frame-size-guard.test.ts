import { expect } from 'chai';
import { FrameSizeGuard } from '../../src/dev/ws/frame-size-guard.js';

/** A masked client frame (RFC 6455) with `size` payload bytes. */
function frame(size: number, fin = true): Buffer {
  const length = size < 126 ? Buffer.from([0x80 | size]) : size < 65536 ? Buffer.from([0x80 | 126, size >> 8, size & 0xff]) : Buffer.concat([Buffer.from([0x80 | 127]), (() => { const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt(size)); return b; })()]);
  return Buffer.concat([Buffer.from([(fin ? 0x80 : 0) | 0x1]), length, Buffer.from([1, 2, 3, 4]), Buffer.alloc(size, 0x61)]);
}

describe('FrameSizeGuard (the WebSocket API\'s 32 KB frame limit)', () => {
  it('passes frames up to the limit, whatever the chunking, and reports the first larger one with its size', () => {
    const stream = Buffer.concat([frame(10), frame(200), frame(32 * 1024), frame(70_000), frame(5)]);
    for (const chunkSize of [1, 3, 7, 1000, stream.length]) {
      const guard = new FrameSizeGuard(32 * 1024);
      const reported: number[] = [];
      for (let offset = 0; offset < stream.length; offset += chunkSize) {
        const size = guard.feed(stream.subarray(offset, offset + chunkSize));
        if (size !== undefined) {
          reported.push(size);
          break;
        }
      }
      expect(reported, `chunks of ${chunkSize}`).to.deep.equal([70_000]);
    }
  });

  it('reads 64-bit lengths, and passes many small frames of one large message', () => {
    expect(new FrameSizeGuard(32 * 1024).feed(frame(100_000).subarray(0, 14))).to.equal(100_000);
    const guard = new FrameSizeGuard(32 * 1024);
    for (let i = 0; i < 6; i++) expect(guard.feed(frame(30 * 1024, i === 5))).to.equal(undefined);
  });
});
