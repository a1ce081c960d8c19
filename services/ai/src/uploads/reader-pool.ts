// Reads uploaded files outside the service's own process: each file in a child process of its own
// (reader-process.ts) with a capped heap, killed when its memory (RSS, which also counts the buffers a
// decompression bomb fills outside the heap) or its time runs out, so a hostile file costs at most one
// child. At most `parsers` children run at once; waiting files are taken in turn from each learner who
// has one waiting, so one learner's uploads cannot starve another's, and a learner has at most
// READS_PER_USER files in this replica's hands at a time.
import { type ChildProcess, fork } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { AI_REASONS } from '@engram/contracts/ai';
import { FailedPrecondition } from '@engram/kit/errors';
import type { Logger } from '@engram/kit/logger';
import type { ReadAnswer, ReadRequest } from './reader-process.ts';

/** Files one learner may have being read or waiting at once (per replica). */
export const READS_PER_USER = 2;
const MEMORY_CHECK_MS = 20;
const MB = 1024 * 1024;
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

interface Job {
  userId: string;
  request: ReadRequest;
  signal: AbortSignal;
  resolve: (outcome: ReadOutcome) => void;
  reject: (error: unknown) => void;
  dequeue: () => void;
}

/** The child's resident memory from /proc, or undefined where there is none (then only its heap is capped). */
async function residentBytes(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
  const kb = status?.match(/^VmRSS:\s+(\d+) kB/m)?.[1];
  return kb === undefined ? undefined : Number(kb) * 1024;
}

export class TooManyReads extends FailedPrecondition {
  constructor() {
    super(
      `Upload limit reached: ${READS_PER_USER} of your files are still being read; wait until they are done.`,
      AI_REASONS.uploadQuotaReached,
    );
  }
}

export function createReaderPool(limits: ReaderLimits, logger: Logger) {
  /** Learners' files waiting to be read, in the order they came. */
  const waiting = new Map<string, Job[]>();
  const inHand = new Map<string, number>();
  /** When each learner with files in hand last had one taken (a count of turns). */
  const lastTurn = new Map<string, number>();
  let turns = 0;
  const children = new Set<ChildProcess>();
  let running = 0;

  function runChild(job: Job): Promise<ReadOutcome> {
    return new Promise((resolve) => {
      const child = fork(READER, [], {
        execArgv: [`--max-old-space-size=${Math.max(16, Math.floor(limits.memoryBytes / MB))}`],
        // The child needs nothing of the service's environment (its secrets least of all).
        env: {},
        serialization: 'advanced',
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      });
      children.add(child);
      let outcome: ReadOutcome | undefined;
      let stderr = '';
      const end = (ended: ReadOutcome) => {
        outcome ??= ended;
        child.kill('SIGKILL');
      };
      const timer = setTimeout(() => end({ ok: false, refusal: 'timed-out' }), limits.timeoutMs);
      const watch = setInterval(async () => {
        if (child.pid === undefined || outcome) return;
        const rss = await residentBytes(child.pid);
        if (rss !== undefined && rss > limits.memoryBytes) end({ ok: false, refusal: 'out-of-memory' });
      }, MEMORY_CHECK_MS);
      const onAbort = () => end({ ok: false, refusal: 'cancelled' });
      job.signal.addEventListener('abort', onAbort, { once: true });
      const finish = (code: number | null, signal: NodeJS.Signals | null) => {
        clearTimeout(timer);
        clearInterval(watch);
        job.signal.removeEventListener('abort', onAbort);
        children.delete(child);
        if (!outcome) {
          // V8 aborts the process when its capped heap is full.
          const heapFull = /heap out of memory|Reached heap limit/i.test(stderr);
          if (!heapFull) logger.warn({ code, signal, stderr: stderr.slice(0, 1000) }, 'the file reader died');
          outcome = { ok: false, refusal: heapFull ? 'out-of-memory' : 'crashed' };
        }
        resolve(outcome);
      };
      child.stderr?.on('data', (chunk: Buffer) => {
        if (stderr.length < 4096) stderr += chunk.toString();
      });
      child.once('message', (answer: ReadAnswer) => end(answer));
      child.once('close', finish);
      child.on('error', (error) => {
        logger.warn({ err: error }, 'the file reader failed');
        if (child.pid === undefined) finish(null, null);
      });
      child.send(job.request, (error) => error && end({ ok: false, refusal: 'crashed' }));
    });
  }

  function release(userId: string) {
    const count = (inHand.get(userId) ?? 1) - 1;
    if (count > 0) inHand.set(userId, count);
    else {
      inHand.delete(userId);
      lastTurn.delete(userId);
    }
  }

  /** The next file to read: the first waiting of the learner whose last turn is longest ago (or who had none). */
  function nextJob(): Job | undefined {
    let next: string | undefined;
    for (const userId of waiting.keys()) {
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
    while (running < limits.parsers) {
      const job = nextJob();
      if (!job) return;
      running += 1;
      job.signal.removeEventListener('abort', job.dequeue);
      runChild(job)
        .then(job.resolve, job.reject)
        .finally(() => {
          running -= 1;
          release(job.userId);
          pump();
        });
    }
  }

  return {
    /** Reads one file for a learner; refuses when they already have READS_PER_USER in hand. */
    read(userId: string, request: ReadRequest, signal: AbortSignal): Promise<ReadOutcome> {
      if (signal.aborted) return Promise.reject(signal.reason);
      if ((inHand.get(userId) ?? 0) >= READS_PER_USER) return Promise.reject(new TooManyReads());
      inHand.set(userId, (inHand.get(userId) ?? 0) + 1);
      return new Promise<ReadOutcome>((resolve, reject) => {
        const jobs = waiting.get(userId) ?? [];
        const job: Job = {
          userId,
          request,
          signal,
          resolve,
          reject,
          // A call given up while its file waits leaves the queue at once.
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
    },
    /** Ends every child still reading (at shutdown). */
    close() {
      for (const child of children) child.kill('SIGKILL');
    },
  };
}

export type ReaderPool = ReturnType<typeof createReaderPool>;
