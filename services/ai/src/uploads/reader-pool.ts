// Reads uploaded files outside the service's own process: each file in a child process of its own
// (reader-process.ts) with a capped heap, killed when its memory (RSS, which also counts the buffers a
// decompression bomb fills outside the heap) or its time runs out, so a hostile file costs at most one
// child (@engram/kit/sandbox). At most `parsers` children run at once; waiting files are taken in turn from
// each learner who has one waiting, so one learner's uploads cannot starve another's, and a learner has at
// most READS_PER_USER files in this replica's hands at a time.
import { extname } from 'node:path';
import { AI_REASONS } from '@engram/contracts/ai';
import { FailedPrecondition } from '@engram/kit/errors';
import type { Logger } from '@engram/kit/logger';
import { createChildPool } from '@engram/kit/sandbox/child-pool';
import type { ReadAnswer, ReadRequest } from './reader-process.ts';

/** Files one learner may have being read or waiting at once (per replica). */
export const READS_PER_USER = 2;
// The child runs from the same kind of file as this module: TypeScript in tests, JavaScript from dist/.
const READER = new URL(`./reader-process${extname(new URL(import.meta.url).pathname)}`, import.meta.url);

export interface ReaderLimits {
  /** Children reading at once. */
  parsers: number;
  /** Memory one child may use (its RSS), in bytes. */
  memoryBytes: number;
  timeoutMs: number;
  /** What a PDF's compressed streams may unpack to, in all. */
  maxInflatedBytes: number;
}

/** What a read ended in: the child's answer, or why the child was ended before it gave one. */
export type ReadOutcome = ReadAnswer | { ok: false; refusal: 'out-of-memory' | 'timed-out' | 'crashed' | 'cancelled' };

export class TooManyReads extends FailedPrecondition {
  constructor() {
    super(
      `Upload limit reached: ${READS_PER_USER} of your files are still being read; wait until they are done.`,
      AI_REASONS.uploadQuotaReached,
    );
  }
}

export function createReaderPool(limits: ReaderLimits, logger: Logger) {
  const pool = createChildPool<ReadRequest, ReadAnswer>({
    entry: READER,
    limits,
    children: limits.parsers,
    // Both of a learner's files may be read at once when no one else is waiting.
    perUser: { inHand: READS_PER_USER, running: READS_PER_USER },
    tooMany: () => new TooManyReads(),
    logger,
  });
  return {
    /** Reads one file for a learner; refuses when they already have READS_PER_USER in hand. */
    async read(userId: string, request: ReadRequest, signal: AbortSignal): Promise<ReadOutcome> {
      const outcome = await pool.run(userId, request, signal);
      if (outcome.ok) return outcome.answer;
      // The reader answers every refusal itself; an error it could not answer is a crash.
      return { ok: false, refusal: outcome.end === 'failed' ? 'crashed' : outcome.end };
    },
    /** Ends every child still reading (at shutdown). */
    close: () => pool.close(),
  };
}

export type ReaderPool = ReturnType<typeof createReaderPool>;
