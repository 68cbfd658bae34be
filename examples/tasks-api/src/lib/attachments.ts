import { BadRequest } from '@framework/runtime';
import { tenantKeyPrefix } from '@framework-pro/tenancy';
import { ContentTypeNotAllowedError, objectKeyProblem, type BucketClient } from '@framework/storage';

/** File names a client may give an attachment: letters, digits, spaces, `.`, `-`, `_`; no path. */
const FILE_NAME = /^[\w][\w. -]{0,199}$/;

/**
 * Attachments live under `<tenant>/<owner>/<task id>/<file name>`: the tenant (resolved, so letters, digits, `-`,
 * `_`) and the caller's subject are part of every key, so one tenant, or one user, can neither list nor overwrite
 * another's files, and no check against the database is needed.
 */
export function attachmentPrefix(tenant: string, owner: string, taskId: string): string {
  if (!/^[\w-]{1,64}$/.test(taskId)) throw new BadRequest(`invalid task id ${JSON.stringify(taskId)}`);
  return `${attachmentOwnerPrefix(tenant, owner)}${taskId}/`;
}

/** Where all of an owner's attachments live: `<tenant>/<owner>/`. */
export function attachmentOwnerPrefix(tenant: string, owner: string): string {
  return `${tenantKeyPrefix(tenant)}${owner.replace(/[^\w-]/g, '_')}/`;
}

export function attachmentKey(tenant: string, owner: string, taskId: string, fileName: unknown): string {
  if (typeof fileName !== 'string' || !FILE_NAME.test(fileName)) throw new BadRequest('"fileName" must be 1 to 200 letters, digits, spaces, ".", "-" or "_", starting with a letter or digit');
  const key = attachmentPrefix(tenant, owner, taskId) + fileName;
  const problem = objectKeyProblem(key);
  if (problem) throw new BadRequest(problem);
  return key;
}

/** A presigned form upload for one attachment; a content type the bucket refuses is the client's mistake (400). */
export async function presignAttachment(bucket: BucketClient, key: string, contentType: unknown) {
  if (typeof contentType !== 'string') throw new BadRequest('"contentType" is required, e.g. "image/png"');
  try {
    return await bucket.presignUpload({ key, contentType, expiresIn: 600 });
  } catch (error) {
    if (error instanceof ContentTypeNotAllowedError) throw new BadRequest(error.message);
    throw error;
  }
}
