// The upload of a collection to import, as the learner who sent it sees it: theirs, meant for import, and
// arrived in the store. Anyone else's, or none, is "not found".
import { MEDIA_REASONS } from '@engram/contracts/media';
import { FailedPrecondition, NotFound } from '@engram/kit/errors';
import type { ObjectStore } from '@engram/kit/storage';
import type { Db } from '../db.js';

export const uploadGone = () =>
  new NotFound('The file to import is no longer there. Please send it again.', 'UPLOAD_NOT_FOUND');

export async function importUploadOf(db: Db, store: ObjectStore, ownerId: string, uploadId: string) {
  const upload = await db.upload.findFirst({
    where: { id: uploadId, ownerId, purpose: 'import', expiresAt: { gt: new Date() } },
  });
  if (!upload) throw uploadGone();
  if (!(await store.headObject(upload.objectKey))) {
    throw new FailedPrecondition('The file has not arrived yet. Send it again.', MEDIA_REASONS.notUploaded);
  }
  return upload;
}
