// media.finishUpload: keeps an uploaded card file (checked and re-encoded by cards) and answers it, with the
// path a card's Markdown uses for it. Re-encoding a large image takes longer than an ordinary call.
import { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type MediaJson, mediaJson } from './json.js';

export const finishUploadInput = z.object({ uploadId: z.uuid('The upload is not valid.') });

const KEEP_CALL = { timeoutMs: 30_000 } as const;

export async function finishUpload({ ctx, input }: HandlerArgs<z.infer<typeof finishUploadInput>>): Promise<MediaJson> {
  const { media } = await asUser(ctx).media.finishUpload(input, KEEP_CALL);
  if (!media) throw new Error('cards kept a file without answering it');
  return mediaJson(media);
}
