import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

/**
 * Signs and verifies the local engine's presigned URLs and upload policies with HMAC-SHA256 and a per-project secret
 * kept in `.fw/storage/.secret` (created on first use, readable by the owner only). The secret never leaves the dev
 * server: functions ask it to presign, as a Lambda asks its role's credentials, so a URL cannot be forged by hand.
 */
export class LocalSigner {
  private constructor(private readonly secret: Buffer) {}

  static async open(secretFile: string): Promise<LocalSigner> {
    try {
      const text = (await readFile(secretFile, 'utf8')).trim();
      if (/^[0-9a-f]{64}$/.test(text)) return new LocalSigner(Buffer.from(text, 'hex'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const secret = randomBytes(32);
    await mkdir(path.dirname(secretFile), { recursive: true });
    await writeFile(secretFile, secret.toString('hex') + '\n', { mode: 0o600 });
    return new LocalSigner(secret);
  }

  sign(text: string): string {
    return createHmac('sha256', this.secret).update(text, 'utf8').digest('hex');
  }

  /** Constant-time comparison, so the answer time does not leak how much of a forged signature was right. */
  verify(text: string, signature: string): boolean {
    if (!/^[0-9a-f]{64}$/.test(signature)) return false;
    return timingSafeEqual(Buffer.from(this.sign(text), 'hex'), Buffer.from(signature, 'hex'));
  }
}

/** What a download signature covers: method, bucket, key and expiry, so none of them can be changed. */
export function downloadStringToSign(bucket: string, key: string, expires: number): string {
  return ['GET', bucket, key, String(expires)].join('\n');
}
