// Child processes (child-process.ts) shared fairly between learners: at most `children` run at once; waiting
// work is taken in turn from each learner who has some, so one learner's queue cannot hold back another's; a
// learner has at most `perUser.inHand` pieces of work in this replica's hands (more is refused with the error
// the caller words) and at most `perUser.running` of them running at once. Work whose caller gives up while it
// waits leaves the queue at once; while it runs, its child is ended.
import type { Logger } from '../logger.js';
import { type ChildLimits, type ChildOutcome, runChild } from './child-process.js';

export interface ChildPoolOptions {
  entry: URL;
  limits: ChildLimits;
  /** Children running at once in this process. */
  children: number;
  perUser: { inHand: number; running: number };
  /** The error a learner gets when they already have `perUser.inHand` pieces of work in hand. */
  tooMany: () => Error;
  logger: Logger;
  env?: NodeJS.ProcessEnv;
  /** The children's niceness (child-process.ts). */
  nice?: number;
}

interface Job<Q, A> {
  userId: string;
  request: Q;
  signal: AbortSignal;
  resolve: (outcome: ChildOutcome<A>) => void;
  reject: (error: unknown) => void;
  dequeue: () => void;
}

/** A place in a learner's hands, taken before what the work needs is read (ChildPool.hold). */
export interface Hold<Q, A> {
  /** Runs `request` in a child when its turn comes; the place is given back when it ends. Once only. */
  run(request: Q, signal: AbortSignal): Promise<ChildOutcome<A>>;
  /** Gives the place back when it was not used to run (read failed, answered from elsewhere); else nothing. */
  release(): void;
}

export interface ChildPool<Q, A> {
  /** Runs `request` for `userId` in a child when its turn comes; refuses when they have too much in hand. */
  run(userId: string, request: Q, signal: AbortSignal): Promise<ChildOutcome<A>>;
  /**
   * Takes one of the learner's places in hand now, or throws their `tooMany` error: before what the work needs is
   * read, so that calls arriving together cannot all read it and be refused only afterwards.
   */
  hold(userId: string): Hold<Q, A>;
  /** Ends every child still running and refuses what waits (at shutdown). */
  close(): void;
}

export function createChildPool<Q, A>(options: ChildPoolOptions): ChildPool<Q, A> {
  const { perUser } = options;
  /** Learners' work waiting, in the order it came. */
  const waiting = new Map<string, Job<Q, A>[]>();
  const inHand = new Map<string, number>();
  const runningOf = new Map<string, number>();
  /** When each learner with work in hand last had some taken (a count of turns). */
  const lastTurn = new Map<string, number>();
  const stopAll = new AbortController();
  let turns = 0;
  let running = 0;

  function release(userId: string) {
    const count = (inHand.get(userId) ?? 1) - 1;
    if (count > 0) inHand.set(userId, count);
    else {
      inHand.delete(userId);
      lastTurn.delete(userId);
    }
  }

  /** The next work: the first waiting of the learner (below their running limit) whose last turn is longest ago. */
  function nextJob(): Job<Q, A> | undefined {
    let next: string | undefined;
    for (const userId of waiting.keys()) {
      if ((runningOf.get(userId) ?? 0) >= perUser.running) continue;
      if (next === undefined || (lastTurn.get(userId) ?? -1) < (lastTurn.get(next) ?? -1)) next = userId;
    }
    const jobs = next === undefined ? undefined : waiting.get(next);
    if (next === undefined || !jobs) return undefined;
    const job = jobs.shift();
    if (jobs.length === 0) waiting.delete(next);
    turns += 1;
    lastTurn.set(next, turns);
    return job;
  }

  function pump() {
    while (running < options.children) {
      const job = nextJob();
      if (!job) return;
      running += 1;
      runningOf.set(job.userId, (runningOf.get(job.userId) ?? 0) + 1);
      job.signal.removeEventListener('abort', job.dequeue);
      const signal = AbortSignal.any([job.signal, stopAll.signal]);
      const { entry, limits, logger, env, nice } = options;
      const spec = { entry, limits, logger, env, nice };
      runChild<Q, A>(spec, job.request, signal)
        .then(job.resolve, job.reject)
        .finally(() => {
          running -= 1;
          const count = (runningOf.get(job.userId) ?? 1) - 1;
          if (count > 0) runningOf.set(job.userId, count);
          else runningOf.delete(job.userId);
          release(job.userId);
          pump();
        });
    }
  }

  /** Queues `request`, whose place in `userId`'s hands is already taken. */
  function enqueue(userId: string, request: Q, signal: AbortSignal): Promise<ChildOutcome<A>> {
    if (signal.aborted || stopAll.signal.aborted) {
      release(userId);
      return Promise.reject(signal.aborted ? signal.reason : stopAll.signal.reason);
    }
    return new Promise<ChildOutcome<A>>((resolve, reject) => {
      const jobs = waiting.get(userId) ?? [];
      const job: Job<Q, A> = {
        userId,
        request,
        signal,
        resolve,
        reject,
        dequeue: () => {
          const index = jobs.indexOf(job);
          if (index === -1) return;
          jobs.splice(index, 1);
          if (jobs.length === 0) waiting.delete(userId);
          release(userId);
          reject(signal.reason);
        },
      };
      jobs.push(job);
      waiting.set(userId, jobs);
      signal.addEventListener('abort', job.dequeue, { once: true });
      pump();
    });
  }

  function hold(userId: string): Hold<Q, A> {
    if ((inHand.get(userId) ?? 0) >= perUser.inHand) throw options.tooMany();
    inHand.set(userId, (inHand.get(userId) ?? 0) + 1);
    let held = true;
    return {
      run(request, signal) {
        if (!held) return Promise.reject(new Error('a place in hand runs one piece of work'));
        held = false;
        return enqueue(userId, request, signal);
      },
      release() {
        if (!held) return;
        held = false;
        release(userId);
      },
    };
  }

  return {
    run(userId, request, signal) {
      if (signal.aborted) return Promise.reject(signal.reason);
      let place: Hold<Q, A>;
      try {
        place = hold(userId);
      } catch (error) {
        return Promise.reject(error);
      }
      return place.run(request, signal);
    },
    hold,
    close() {
      stopAll.abort(new Error('the service is stopping'));
      for (const jobs of waiting.values()) for (const job of jobs.splice(0)) job.reject(stopAll.signal.reason);
      waiting.clear();
    },
  };
}
