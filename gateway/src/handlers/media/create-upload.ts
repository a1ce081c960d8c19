// media.createUpload: a place in the store for one file; the browser PUTs the bytes to `url` with `headers`.
import { type CreateUploadInput, createUploadInput } from '@engram/contracts/media';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';

export { createUploadInput };

export async function createUpload({
  ctx,
  input,
}: HandlerArgs<CreateUploadInput>): Promise<{ uploadId: string; url: string; headers: Record<string, string> }> {
  const answer = await asUser(ctx).media.createUpload(input);
  return { uploadId: answer.uploadId, url: answer.url, headers: answer.headers };
}
