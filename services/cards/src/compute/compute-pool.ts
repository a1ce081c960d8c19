// Long CPU work a learner's call asks for (simulations, retention recommendations, rescheduling plans) runs in
// child processes (compute-process.ts, @engram/kit/sandbox), never on the event loop that serves every learner's
// reviews (docs/architecture.md#bulkheads). A learner's pieces run one at a time, at most
// COMPUTE_PER_LEARNER in hand (more is refused), taken in turn with other learners'; a call given up ends its
// child; each child has its memory and time. Answers are kept a while by what they were computed from, so
// asking again for the same forecast costs no new work.
import { createHash } from 'node:crypto';
import { extname } from 'node:path';
import { serialize } from 'node:v8';
import { DomainError, FailedPrecondition, ResourceExhausted } from '@engram/kit/errors';
import type { Logger } from '@engram/kit/logger';
import { type ChildPool, createChildPool, type Hold } from '@engram/kit/sandbox/child-pool';
import type { ComputeRequest, ComputeTask, ComputeTasks } from './compute-process.js';

// The child runs from the same kind of file as this module: TypeScript in tests, JavaScript from dist/.
const COMPUTE_PROCESS = new URL(`./compute-process${extname(new URL(import.meta.url).pathname)}`, import.meta.url);
/** A learner's pieces of work in this replica's hands at once: one running, one waiting. */
export const COMPUTE_PER_LEARNER = 2;
const CACHE_ENTRIES = 500;
const CACHE_MS = 10 * 60_000;
const MB = 1024 * 1024;

export interface ComputeLimits {
  /** Children computing at once in this replica. */
  children: number;
  memoryBytes: number;
  timeoutMs: number;
}

/**
 * One child at a time per replica: on two cores the other is the service's, for every learner's calls (more
 * replicas, more at once). The gateway waits 15 s for a forecast: a turn and the work.
 */
export const DEFAULT_COMPUTE_LIMITS: ComputeLimits = { children: 1, memoryBytes: 512 * MB, timeoutMs: 12_000 };
/** Forecasts yield the CPU to the calls learners wait for. */
export const COMPUTE_NICENESS = 10;

export class TooMuchComputing extends ResourceExhausted {
  constructor() {
    super('A forecast of yours is still being worked out. Wait for it, then ask again.');
  }
}

/** Why a piece of work did not come back, in the learner's words. */
export class ComputeFailed extends FailedPrecondition {}

const WORDS = {
  'out-of-memory': 'This forecast needed more memory than we allow one, so it was stopped.',
  'timed-out': 'This forecast took longer than we allow one, so it was stopped.',
  crashed: 'This forecast stopped unexpectedly. Please try again.',
  failed: 'This forecast could not be worked out. Please try again.',
} as const;

export interface Compute {
  /**
   * Works out `task` for `userId` from what `read` gives. The learner's place in hand is taken first: past
   * their limit they are refused before `read` runs, so forecasts asked together never all read their cards.
   */
  run<T extends ComputeTask>(
    userId: string,
    task: T,
    read: () => ComputeTasks[T]['given'] | Promise<ComputeTasks[T]['given']>,
    signal: AbortSignal,
  ): Promise<ComputeTasks[T]['answer']>;
  close(): void;
}

export interface ComputeOptions {
  /** Answers kept for the same inputs (forecasts; not files, whose answers are their bytes). Default true. */
  cache?: boolean;
  /** A learner's pieces in hand (default COMPUTE_PER_LEARNER) and the error past them. */
  perLearner?: number;
  tooMany?: () => Error;
}

export function createCompute(limits: ComputeLimits, logger: Logger, options: ComputeOptions = {}): Compute {
  const caching = options.cache ?? true;
  const pool: ChildPool<ComputeRequest, unknown> = createChildPool({
    entry: COMPUTE_PROCESS,
    limits,
    children: limits.children,
    perUser: { inHand: options.perLearner ?? COMPUTE_PER_LEARNER, running: 1 },
    tooMany: options.tooMany ?? (() => new TooMuchComputing()),
    logger,
    env: {},
    nice: COMPUTE_NICENESS,
  });
  /** Answers by learner and a digest of the task and everything it was given, oldest first. */
  const cache = new Map<string, { answer: unknown; until: number }>();
  /** Work under way by the same key: a second ask waits for the first. */
  const underWay = new Map<string, Promise<unknown>>();

  function remember(key: string, answer: unknown) {
    cache.delete(key);
    cache.set(key, { answer, until: Date.now() + CACHE_MS });
    while (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  }

  async function compute(
    place: Hold<ComputeRequest, unknown>,
    userId: string,
    request: ComputeRequest,
    signal: AbortSignal,
  ): Promise<unknown> {
    const outcome = await place.run(request, signal);
    if (outcome.ok) return outcome.answer;
    if (outcome.end === 'cancelled') throw signal.reason ?? new Error('the call was given up');
    logger.warn({ userId, task: request.task, end: outcome.end }, 'a computation ended its process');
    throw new ComputeFailed(WORDS[outcome.end]);
  }

  async function run(
    place: Hold<ComputeRequest, unknown>,
    userId: string,
    request: ComputeRequest,
    signal: AbortSignal,
  ): Promise<unknown> {
    if (!caching) return compute(place, userId, request, signal);
    const key = `${userId}:${createHash('sha256').update(serialize(request)).digest('base64url')}`;
    const kept = cache.get(key);
    if (kept && kept.until > Date.now()) return kept.answer;
    const same = underWay.get(key);
    if (same) {
      try {
        return await same;
      } catch (error) {
        // The call that asked first gave up, and its work with it: this one asks anew. A failure of the work
        // itself (its memory, its time, too much in hand) is this call's answer too.
        if (signal.aborted || error instanceof DomainError) throw error;
      }
    }
    const work = compute(place, userId, request, signal);
    underWay.set(key, work);
    try {
      const answer = await work;
      remember(key, answer);
      return answer;
    } finally {
      underWay.delete(key);
    }
  }

  return {
    async run(userId, task, read, signal) {
      const place = pool.hold(userId);
      try {
        const request = { task, given: await read() } as ComputeRequest;
        return (await run(place, userId, request, signal)) as never;
      } finally {
        // Not used when the answer was kept or worked out for another call, or the read failed.
        place.release();
      }
    },
    close: () => pool.close(),
  };
}

/** The service's two pools: forecasts, and the checks of uploaded card files (not to wait behind forecasts). */
export interface Computes {
  forecasts: Compute;
  fileChecks: Compute;
}

/** A learner's card files in hand at once: a picture pasted while another is still checked. */
const FILES_PER_LEARNER = 4;

export class TooManyFiles extends ResourceExhausted {
  constructor() {
    super(`${FILES_PER_LEARNER} of your files are still being checked. Wait for them, then send this one again.`);
  }
}

export function createComputes(logger: Logger, limits: ComputeLimits = DEFAULT_COMPUTE_LIMITS): Computes {
  return {
    forecasts: createCompute(limits, logger),
    fileChecks: createCompute(limits, logger, {
      cache: false,
      perLearner: FILES_PER_LEARNER,
      tooMany: () => new TooManyFiles(),
    }),
  };
}
