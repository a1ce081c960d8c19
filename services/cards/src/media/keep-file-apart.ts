// An uploaded card file is checked and re-encoded (keep-file.ts: sharp decodes pictures, music-metadata reads
// sounds) in a child process of its own (compute/compute-pool.ts), never in the process that serves every
// learner's calls: a file crafted to take the decoder's memory or time costs one child, and is refused.
import { MEDIA_REASONS } from '@engram/contracts/media';
import { Invalid } from '@engram/kit/errors';
import { type Compute, ComputeFailed } from '../compute/compute-pool.js';
import type { KeptFile } from './keep-file.js';

export async function keepFileApart(
  files: Compute,
  ownerId: string,
  bytes: Buffer,
  claimedType: string,
  signal: AbortSignal,
): Promise<KeptFile> {
  let answer: Awaited<ReturnType<typeof files.run<'keep-file'>>>;
  try {
    answer = await files.run(ownerId, 'keep-file', () => ({ bytes, claimedType }), signal);
  } catch (error) {
    if (!(error instanceof ComputeFailed)) throw error;
    throw new Invalid(
      'This file could not be read within the memory and time a card file may take, so it was not kept.',
      MEDIA_REASONS.notWhatItSays,
    );
  }
  if ('refused' in answer) throw new Invalid(answer.refused.message, answer.refused.reason);
  const kept = answer.kept.bytes;
  return { ...answer.kept, bytes: Buffer.from(kept.buffer, kept.byteOffset, kept.byteLength) };
}
