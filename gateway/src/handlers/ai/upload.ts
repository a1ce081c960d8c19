// ai.upload: a .md, .txt or PDF file sent as FormData (field `file`); the ai service extracts and keeps
// its text for ai.generate {fileId}. The size is checked here first, so an oversized file goes no further.
import { UPLOAD_MAX_BYTES } from '@engram/contracts/ai';
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';

export const uploadInput = z.instanceof(FormData, { message: 'Send the file as form data.' });

/** The body of an upload may exceed TRPC_MAX_BODY_BYTES by this much: the file and its multipart framing. */
export const UPLOAD_BODY_MAX_BYTES = UPLOAD_MAX_BYTES + 64 * 1024;
const UPLOAD_CALL_MS = 30_000;

export async function upload({ ctx, input }: HandlerArgs<FormData>) {
  const file = input.get('file');
  if (!(file instanceof Blob)) throw new TRPCError({ code: 'BAD_REQUEST', message: 'Choose a file to upload.' });
  if (file.size > UPLOAD_MAX_BYTES) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: `The file is larger than ${UPLOAD_MAX_BYTES / 1024 / 1024} MB.`,
    });
  }
  const answer = await asUser(ctx).ai.upload(
    {
      fileName: file instanceof File ? file.name : 'notes.txt',
      mediaType: file.type,
      content: Buffer.from(await file.arrayBuffer()),
    },
    { timeoutMs: UPLOAD_CALL_MS },
  );
  return answer;
}
