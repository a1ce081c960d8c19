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

/** The pool createChildPool makes (see the header): the learners' places in hand, their queues and turns. */
class FairChildPool<Q, A> implements ChildPool<Q, A> {
  private readonly options: ChildPoolOptions;
  /** Learners' work waiting, in the order it came. */
  private readonly waiting = new Map<string, Job<Q, A>[]>();
  private readonly inHand = new Map<string, number>();
  private readonly runningOf = new Map<string, number>();
  /** When each learner with work in hand last had some taken (a count of turns). */
  private readonly lastTurn = new Map<string, number>();
  private readonly stopAll = new AbortController();
  private turns = 0;
  private running = 0;

  constructor(options: ChildPoolOptions) {
    this.options = options;
  }

  readonly run = (userId: string, request: Q, signal: AbortSignal): Promise<ChildOutcome<A>> => {
    if (signal.aborted) return Promise.reject(signal.reason);
    let place: Hold<Q, A>;
    try {
      place = this.hold(userId);
    } catch (error) {
      return Promise.reject(error);
    }
    return place.run(request, signal);
  };

  readonly hold = (userId: string): Hold<Q, A> => {
    if ((this.inHand.get(userId) ?? 0) >= this.options.perUser.inHand) throw this.options.tooMany();
    this.inHand.set(userId, (this.inHand.get(userId) ?? 0) + 1);
    let held = true;
    return {
      run: (request, signal) => {
        if (!held) return Promise.reject(new Error('a place in hand runs one piece of work'));
        held = false;
        return this.enqueue(userId, request, signal);
      },
      release: () => {
        if (!held) return;
        held = false;
        this.release(userId);
      },
    };
  };

  readonly close = (): void => {
    this.stopAll.abort(new Error('the service is stopping'));
    for (const jobs of this.waiting.values()) for (const job of jobs.splice(0)) job.reject(this.stopAll.signal.reason);
    this.waiting.clear();
  };

  /** Gives back one of `userId`'s places in hand. */
  private release(userId: string) {
    const count = (this.inHand.get(userId) ?? 1) - 1;
    if (count > 0) this.inHand.set(userId, count);
    else {
      this.inHand.delete(userId);
      this.lastTurn.delete(userId);
    }
  }

  /** The next work: the first waiting of the learner (below their running limit) whose last turn is longest ago. */
  private nextJob(): Job<Q, A> | undefined {
    let next: string | undefined;
    for (const userId of this.waiting.keys()) {
      if ((this.runningOf.get(userId) ?? 0) >= this.options.perUser.running) continue;
      if (next === undefined || (this.lastTurn.get(userId) ?? -1) < (this.lastTurn.get(next) ?? -1)) next = userId;
    }
    const jobs = next === undefined ? undefined : this.waiting.get(next);
    if (next === undefined || !jobs) return undefined;
    const job = jobs.shift();
    if (jobs.length === 0) this.waiting.delete(next);
    this.turns += 1;
    this.lastTurn.set(next, this.turns);
    return job;
  }

  /** Starts waiting work while children are free. */
  private pump() {
    while (this.running < this.options.children) {
      const job = this.nextJob();
      if (!job) return;
      this.start(job);
    }
  }

  /** Runs `job` in a child; when it ends, its place is given back and the next work may start. */
  private start(job: Job<Q, A>) {
    this.running += 1;
    this.runningOf.set(job.userId, (this.runningOf.get(job.userId) ?? 0) + 1);
    job.signal.removeEventListener('abort', job.dequeue);
    const signal = AbortSignal.any([job.signal, this.stopAll.signal]);
    const { entry, limits, logger, env, nice } = this.options;
    const spec = { entry, limits, logger, env, nice };
    runChild<Q, A>(spec, job.request, signal)
      .then(job.resolve, job.reject)
      .finally(() => {
        this.running -= 1;
        const count = (this.runningOf.get(job.userId) ?? 1) - 1;
        if (count > 0) this.runningOf.set(job.userId, count);
        else this.runningOf.delete(job.userId);
        this.release(job.userId);
        this.pump();
      });
  }

  /** Queues `request`, whose place in `userId`'s hands is already taken. */
  private enqueue(userId: string, request: Q, signal: AbortSignal): Promise<ChildOutcome<A>> {
    const { stopAll, waiting } = this;
    if (signal.aborted || stopAll.signal.aborted) {
      this.release(userId);
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
          this.release(userId);
          reject(signal.reason);
        },
      };
      jobs.push(job);
      waiting.set(userId, jobs);
      signal.addEventListener('abort', job.dequeue, { once: true });
      this.pump();
    });
  }
}

export function createChildPool<Q, A>(options: ChildPoolOptions): ChildPool<Q, A> {
  return new FairChildPool<Q, A>(options);
}
