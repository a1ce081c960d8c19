// ai.proposeOcclusions: the picture of an occlusion card sent as FormData (field `picture`, and `language` for
// the labels); the ai service proposes the shapes over it (each counted as a generated card). The size is checked
// here first, so an oversized picture goes no further.
import { OCCLUSION_PICTURE_MAX_BYTES } from '@engram/contracts/ai';
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';

export const proposeOcclusionsInput = z.instanceof(FormData, { message: 'Send the picture as form data.' });

/** The most a proposal's body may be: the picture and its multipart framing. */
export const PROPOSE_BODY_MAX_BYTES = OCCLUSION_PICTURE_MAX_BYTES + 64 * 1024;
const PROPOSE_CALL_MS = 60_000;

export async function proposeOcclusions({ ctx, input }: HandlerArgs<FormData>) {
  const picture = input.get('picture');
  if (!(picture instanceof Blob)) throw new TRPCError({ code: 'BAD_REQUEST', message: 'Choose a picture first.' });
  if (picture.size > OCCLUSION_PICTURE_MAX_BYTES) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: `The picture is larger than ${OCCLUSION_PICTURE_MAX_BYTES / 1024 / 1024} MB.`,
    });
  }
  const language = input.get('language');
  return asUser(ctx).ai.proposeOcclusions(
    {
      picture: Buffer.from(await picture.arrayBuffer()),
      mediaType: picture.type,
      language: typeof language === 'string' ? language : '',
    },
    { timeoutMs: PROPOSE_CALL_MS },
  );
}
