// Work that must not run in a process that serves requests (native code, untrusted files, long CPU work) runs in
// a child process of its own, one per piece of work (docs/architecture.md#bulkheads): its heap is capped, it is
// killed when its resident memory (which also counts what native code and buffers hold outside the heap) or its
// time runs out, or when its caller gives up. Whatever the work does to its process (a native panic that aborts
// it, an out-of-memory, an endless loop) ends that child only, and the caller gets the reason as an outcome.
//
// The child is a module that calls `answerParent` (answer-parent.ts). It runs from the same kind of file as its
// parent: JavaScript from dist/, or TypeScript sources in tests (then with the sources' export condition and a
// resolver for their `.js` imports, source-hooks.ts).
import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import type { Logger } from '../logger.js';

const MB = 1024 * 1024;
const MEMORY_CHECK_MS = 20;

export interface ChildLimits {
  /** Memory the child may use (its resident set), in bytes; its heap is capped a little below. */
  memoryBytes: number;
  timeoutMs: number;
}

/** How a child ended without answering. */
export type ChildEnd = 'out-of-memory' | 'timed-out' | 'crashed' | 'cancelled';

/** The child's answer, the error its work threw (`failed`), or why it was ended before either. */
export type ChildOutcome<A> =
  | { ok: true; answer: A }
  | { ok: false; end: 'failed'; message: string; name: string }
  | { ok: false; end: ChildEnd };

export interface ChildSpec {
  /** The child's module (a sibling file: `new URL('./x.js', import.meta.url)` as the build emits it). */
  entry: URL;
  limits: ChildLimits;
  logger: Logger;
  /** The child's environment (default: none, so it holds none of the parent's secrets). */
  env?: NodeJS.ProcessEnv;
  /**
   * When the caller gives up: 0 (default) kills the child at once; more asks it to stop (its work's signal is
   * aborted, so it can hand its work back) and kills it only when it has not ended within this time.
   */
  stopGraceMs?: number;
  /** The child's niceness (0–19): work in the background yields the CPU to the service's calls. */
  nice?: number;
}

/**
 * What the parent sends: the work (or, when large, the file it is written to), then perhaps a request to stop.
 * A large request goes through a file because writing to the IPC pipe blocks the parent while the child, niced,
 * reads it: tens of milliseconds of a service's event loop for a few megabytes.
 */
export type ToChild<Q> = { type: 'run'; request: Q } | { type: 'run-file'; path: string } | { type: 'stop' };

/** Requests larger than this (serialized) go to the child through a file. */
const INLINE_REQUEST_BYTES = 64 * 1024;

/** The message that hands `request` to a child: inline, or written (without blocking) to a file it reads. */
async function runMessage<Q>(request: Q): Promise<{ message: ToChild<Q>; file?: string }> {
  const bytes = serialize(request);
  if (bytes.length <= INLINE_REQUEST_BYTES) return { message: { type: 'run', request } };
  const file = join(tmpdir(), `engram-work-${randomUUID()}`);
  await writeFile(file, bytes, { mode: 0o600 });
  return { message: { type: 'run-file', path: file }, file };
}
/** What the child sends back, once. */
export type FromChild<A> = { type: 'answer'; answer: A } | { type: 'error'; message: string; name: string };

/**
 * The child's resident memory from /proc, or undefined where there is none (then only its heap is capped). Read
 * at once: a kernel's page of text, cheaper to read than to hand to the thread pool and wait for 50 times a second.
 */
function residentBytes(pid: number): number | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kb = status.match(/^VmRSS:\s+(\d+) kB/m)?.[1];
  return kb === undefined ? undefined : Number(kb) * 1024;
}

function execArgvFor(entry: URL, memoryBytes: number): string[] {
  // The heap a little below the whole allowance, so most runaway JavaScript ends as V8's own out-of-memory.
  const heap = [`--max-old-space-size=${Math.max(16, Math.floor((memoryBytes * 0.85) / MB))}`];
  if (!entry.pathname.endsWith('.ts')) return heap;
  return [
    ...heap,
    '--conditions=@engram/source',
    '--import',
    new URL(`./source-register${extname(import.meta.url)}`, import.meta.url).href,
  ];
}

const extname = (url: string) => url.slice(url.lastIndexOf('.'));

/** Runs `request` in a new child process of `spec.entry`, within its limits; never throws. */
export async function runChild<Q, A>(spec: ChildSpec, request: Q, signal: AbortSignal): Promise<ChildOutcome<A>> {
  if (signal.aborted) return { ok: false, end: 'cancelled' };
  const { message, file } = await runMessage(request);
  try {
    return await runChildWith<Q, A>(spec, message, signal);
  } finally {
    if (file) await rm(file, { force: true });
  }
}

function runChildWith<Q, A>(spec: ChildSpec, work: ToChild<Q>, signal: AbortSignal): Promise<ChildOutcome<A>> {
  const { limits, logger } = spec;
  if (signal.aborted) return Promise.resolve({ ok: false, end: 'cancelled' });
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = fork(spec.entry, [], {
        execArgv: execArgvFor(spec.entry, limits.memoryBytes),
        env: spec.env ?? {},
        serialization: 'advanced',
        stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
      });
    } catch (error) {
      logger.warn({ err: error }, 'a child process could not start');
      resolve({ ok: false, end: 'crashed' });
      return;
    }
    // Should the machine or the container run short of memory, the kernel ends a child before the service.
    if (child.pid !== undefined) void writeFile(`/proc/${child.pid}/oom_score_adj`, '1000').catch(() => undefined);
    if (spec.nice && child.pid !== undefined) {
      try {
        setPriority(child.pid, spec.nice);
      } catch (error) {
        logger.debug({ err: error }, "a child process's priority could not be lowered");
      }
    }
    let outcome: ChildOutcome<A> | undefined;
    let stderr = '';
    let killTimer: NodeJS.Timeout | undefined;
    const end = (ended: ChildOutcome<A>) => {
      outcome ??= ended;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => end({ ok: false, end: 'timed-out' }), limits.timeoutMs);
    const watch = setInterval(() => {
      if (child.pid === undefined || outcome) return;
      const rss = residentBytes(child.pid);
      if (rss !== undefined && rss > limits.memoryBytes) end({ ok: false, end: 'out-of-memory' });
    }, MEMORY_CHECK_MS);
    const onAbort = () => {
      const grace = spec.stopGraceMs ?? 0;
      if (grace <= 0 || !child.connected) {
        end({ ok: false, end: 'cancelled' });
        return;
      }
      // The child hands its work back and answers (its error); it is killed if it does not within the grace.
      child.send({ type: 'stop' } satisfies ToChild<Q>, () => undefined);
      killTimer = setTimeout(() => end({ ok: false, end: 'cancelled' }), grace);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const finish = (code: number | null, killedBy: NodeJS.Signals | null) => {
      clearTimeout(timer);
      clearTimeout(killTimer);
      clearInterval(watch);
      signal.removeEventListener('abort', onAbort);
      if (!outcome) {
        // V8 aborts the process when its capped heap is full.
        const heapFull = /heap out of memory|Reached heap limit|Allocation failed/i.test(stderr);
        if (!heapFull) logger.warn({ code, signal: killedBy, stderr: stderr.slice(-2000) }, 'a child process died');
        outcome = { ok: false, end: heapFull ? 'out-of-memory' : 'crashed' };
      }
      resolve(outcome);
    };
    child.stderr?.on('data', (chunk: Buffer) => {
      // The end of what it wrote is what tells why it died.
      stderr = (stderr + chunk.toString()).slice(-8192);
    });
    child.once('message', (message: FromChild<A>) => {
      if (message.type === 'answer') end({ ok: true, answer: message.answer });
      else end({ ok: false, end: 'failed', message: message.message, name: message.name });
    });
    child.once('close', finish);
    child.on('error', (error) => {
      logger.warn({ err: error }, 'a child process failed');
      if (child.pid === undefined) finish(null, null);
    });
    child.send(work, (error) => {
      if (error) end({ ok: false, end: 'crashed' });
    });
  });
}
