import busboy from 'busboy';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { LOCAL_POLICY_SIGNATURE_FIELD } from '../client/local-protocol.js';
import { objectKeyProblem } from '../keys/object-key.js';
import { contentTypeAllowed, contentTypeProblem } from '../limits/content-type.js';
import { ObjectTooLargeError, type LocalObjectMeta, type LocalObjectStore } from './object-store.js';
import { S3ErrorResponse } from './s3-error.js';
import type { LocalSigner } from './signer.js';

/** What an upload is checked against. */
export interface PostUploadContext {
  readonly bucketId: string;
  readonly store: LocalObjectStore;
  readonly signer: LocalSigner;
  /** Milliseconds since the epoch. */
  readonly now: number;
  /** The bucket's own limits, checked on top of the policy (the policy was signed within them). */
  readonly allowedContentTypes?: readonly string[];
}

export interface PostUploadResult {
  readonly meta: LocalObjectMeta;
  /** `success_action_status` of the form (S3 answers 204 unless it says 200 or 201). */
  readonly successStatus: 200 | 201 | 204;
}

/** Fields S3 never requires a condition for. */
const EXEMPT_FIELDS = new Set(['policy', LOCAL_POLICY_SIGNATURE_FIELD.toLowerCase(), 'file', 'x-amz-signature']);

/**
 * Receives an S3-style POST upload (multipart form: fields, then the `file` part) and checks it exactly as S3 checks a
 * POST policy: the signature over the base64 policy, its expiration, every condition against the form fields, every
 * field covered by a condition, and the `content-length-range` while the bytes arrive. The file goes to a temp file
 * that is renamed into place only when every check passed, so a rejected upload writes nothing.
 */
export async function receivePostUpload(headers: IncomingHttpHeaders, body: Readable, ctx: PostUploadContext): Promise<PostUploadResult> {
  if (!String(headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data')) {
    throw new S3ErrorResponse('MalformedPOSTRequest', 'The body of your POST request is not well-formed multipart/form-data.');
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers, limits: { files: 1, fields: 100, fieldSize: 64 * 1024, parts: 102 } });
  } catch (error) {
    throw new S3ErrorResponse('MalformedPOSTRequest', `The body of your POST request is not well-formed multipart/form-data: ${(error as Error).message}`);
  }

  return new Promise<PostUploadResult>((resolve, reject) => {
    const fields = new Map<string, { name: string; value: string }>();
    let outcome: Promise<PostUploadResult> | undefined;
    let failure: unknown;
    let fileStream: Readable | undefined;

    // S3 ignores fields after the file.
    parser.on('field', (name, value) => {
      if (outcome === undefined && failure === undefined) fields.set(name.toLowerCase(), { name, value });
    });
    parser.on('file', (name, stream) => {
      if (outcome !== undefined || failure !== undefined || name !== 'file') {
        stream.resume();
        return;
      }
      try {
        const checked = checkForm(fields, ctx);
        fileStream = stream;
        outcome = writeObject(stream, checked, ctx);
        // Handled in 'close'; marked handled now so an early rejection is not reported as unhandled.
        outcome.catch(() => undefined);
      } catch (error) {
        failure = error;
        stream.resume();
      }
    });
    parser.on('close', () => {
      if (failure !== undefined) reject(failure);
      else if (outcome === undefined) reject(new S3ErrorResponse('MalformedPOSTRequest', 'POST requires exactly one file upload per request, in a field named "file" after the other fields.'));
      else outcome.then(resolve, reject);
    });
    parser.on('error', (error: Error) => {
      if (outcome) outcome.then(() => undefined, () => undefined);
      reject(new S3ErrorResponse('MalformedPOSTRequest', `The body of your POST request is not well-formed multipart/form-data: ${error.message}`));
    });
    // A client that disconnects mid-upload never ends the form: fail the file stream so its temp file is removed.
    const abort = () => {
      const error = new S3ErrorResponse('MalformedPOSTRequest', 'The upload was cut off before the end of the form.');
      fileStream?.destroy(error);
      if (outcome) outcome.then(() => undefined, () => undefined).finally(() => reject(error));
      else reject(error);
    };
    body.once('close', () => {
      if (body.readableAborted || (body as { complete?: boolean }).complete === false) abort();
    });
    body.on('error', abort);
    body.pipe(parser);
  });
}

interface CheckedForm {
  readonly key: string;
  readonly contentType: string;
  readonly minBytes: number;
  readonly maxBytes: number;
  readonly successStatus: 200 | 201 | 204;
}

type Fields = ReadonlyMap<string, { name: string; value: string }>;

function checkForm(fields: Fields, ctx: PostUploadContext): CheckedForm {
  const policyText = fields.get('policy')?.value;
  const signature = fields.get(LOCAL_POLICY_SIGNATURE_FIELD.toLowerCase())?.value;
  if (policyText === undefined || signature === undefined) {
    throw new S3ErrorResponse('AccessDenied', `Anonymous uploads are not allowed: the form needs the "Policy" and "${LOCAL_POLICY_SIGNATURE_FIELD}" fields of a presigned upload.`);
  }
  if (!ctx.signer.verify(policyText, signature)) {
    throw new S3ErrorResponse('SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check the policy and the signature: they must be sent unchanged.');
  }
  let policy: { expiration?: unknown; conditions?: unknown };
  try {
    policy = JSON.parse(Buffer.from(policyText, 'base64').toString('utf8')) as typeof policy;
  } catch {
    throw new S3ErrorResponse('InvalidArgument', 'Invalid Policy: the policy is not base64-encoded JSON.');
  }
  const expiration = typeof policy.expiration === 'string' ? Date.parse(policy.expiration) : NaN;
  if (Number.isNaN(expiration) || !Array.isArray(policy.conditions)) throw new S3ErrorResponse('InvalidArgument', 'Invalid Policy: it needs "expiration" and "conditions".');
  if (ctx.now > expiration) throw new S3ErrorResponse('AccessDenied', 'Invalid according to Policy: Policy expired.');

  const valueOf = (name: string): string | undefined => (name === 'bucket' ? ctx.bucketId : fields.get(name)?.value);
  const covered = new Set<string>();
  let minBytes = 0;
  let maxBytes = Number.POSITIVE_INFINITY;
  for (const condition of policy.conditions as unknown[]) {
    const failed = () => new S3ErrorResponse('AccessDenied', `Invalid according to Policy: Policy Condition failed: ${JSON.stringify(condition)}`);
    if (Array.isArray(condition)) {
      const [op, a, b] = condition as unknown[];
      if (op === 'content-length-range' && typeof a === 'number' && typeof b === 'number') {
        minBytes = Math.max(minBytes, a);
        maxBytes = Math.min(maxBytes, b);
        continue;
      }
      if ((op === 'eq' || op === 'starts-with') && typeof a === 'string' && a.startsWith('$') && typeof b === 'string') {
        const name = a.slice(1).toLowerCase();
        covered.add(name);
        const value = valueOf(name);
        if (op === 'eq' ? value !== b : !(value ?? '').startsWith(b)) throw failed();
        continue;
      }
      throw new S3ErrorResponse('InvalidArgument', `Invalid Policy: unknown condition ${JSON.stringify(condition)}`);
    }
    if (condition !== null && typeof condition === 'object') {
      for (const [name, expected] of Object.entries(condition)) {
        covered.add(name.toLowerCase());
        if (valueOf(name.toLowerCase()) !== expected) throw failed();
      }
      continue;
    }
    throw new S3ErrorResponse('InvalidArgument', `Invalid Policy: unknown condition ${JSON.stringify(condition)}`);
  }
  const extra = [...fields.entries()].filter(([name]) => !EXEMPT_FIELDS.has(name) && !name.startsWith('x-ignore-') && !covered.has(name)).map(([, f]) => f.name);
  if (extra.length) throw new S3ErrorResponse('AccessDenied', `Invalid according to Policy: Extra input fields: ${extra.join(', ')}`);

  const key = fields.get('key')?.value;
  if (key === undefined) throw new S3ErrorResponse('InvalidArgument', 'Bucket POST must contain a field named "key".');
  const keyProblem = objectKeyProblem(key);
  if (keyProblem !== undefined) throw new S3ErrorResponse('InvalidArgument', `Invalid object key: ${keyProblem}.`);
  const contentType = fields.get('content-type')?.value || 'binary/octet-stream';
  // Checked even when the policy allows any type: the value is stored and sent back as a header.
  const typeProblem = contentTypeProblem(contentType);
  if (typeProblem !== undefined) throw new S3ErrorResponse('InvalidArgument', `Invalid Content-Type ${JSON.stringify(contentType)}: ${typeProblem}.`);
  if (!contentTypeAllowed(contentType, ctx.allowedContentTypes)) {
    throw new S3ErrorResponse('AccessDenied', `Content type "${contentType}" is not allowed in bucket "${ctx.bucketId}" (allowed: ${ctx.allowedContentTypes!.join(', ')}).`);
  }
  const status = fields.get('success_action_status')?.value;
  return { key, contentType, minBytes, maxBytes, successStatus: status === '200' ? 200 : status === '201' ? 201 : 204 };
}

async function writeObject(stream: Readable, form: CheckedForm, ctx: PostUploadContext): Promise<PostUploadResult> {
  let received;
  try {
    received = await ctx.store.receive(stream, form.maxBytes);
  } catch (error) {
    if (error instanceof ObjectTooLargeError) throw new S3ErrorResponse('EntityTooLarge', `Your proposed upload exceeds the maximum allowed size of ${form.maxBytes} bytes.`);
    throw error;
  }
  if (received.size < form.minBytes) {
    await ctx.store.discard(received.tempFile);
    throw new S3ErrorResponse('EntityTooSmall', `Your proposed upload is smaller than the minimum allowed size of ${form.minBytes} bytes.`);
  }
  const meta: LocalObjectMeta = { key: form.key, size: received.size, etag: received.etag, contentType: form.contentType, lastModified: new Date(ctx.now).toISOString() };
  await ctx.store.commit(received.tempFile, meta);
  return { meta, successStatus: form.successStatus };
}
