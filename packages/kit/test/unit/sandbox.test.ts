// Work run in a child process of its own ends there, whatever it does: an answer or its error comes back, and a
// process that aborts, fills its memory or runs past its time is ended, and its caller told why, while the parent
// goes on. A pool shares its children fairly between learners.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { createChildPool } from '../../src/sandbox/child-pool.ts';
import { type ChildLimits, runChild } from '../../src/sandbox/child-process.ts';
import type { Behaviour } from '../fixtures/sandbox-child.ts';

const MB = 1024 * 1024;
const logger = createLogger({ service: 'kit-test', level: 'silent' });
const entry = new URL('../fixtures/sandbox-child.ts', import.meta.url);
const limits: ChildLimits = { memoryBytes: 256 * MB, timeoutMs: 30_000 };
const never = new AbortController().signal;
const run = (request: Behaviour, options: { limits?: ChildLimits; signal?: AbortSignal; stopGraceMs?: number } = {}) =>
  runChild<Behaviour, string>(
    { entry, limits: options.limits ?? limits, logger, stopGraceMs: options.stopGraceMs },
    request,
    options.signal ?? never,
  );

describe('work in a child process', () => {
  it('answers what the work returns', async () => {
    expect(await run({ do: 'answer', value: 'forty-two' })).toEqual({ ok: true, answer: 'forty-two' });
  });

  it('takes a large request through a file, not the pipe, and leaves no file behind', async () => {
    // A temp folder of this test's own: other test files running beside it make and remove work files in the
    // machine's.
    const own = await mkdtemp(join(tmpdir(), 'engram-sandbox-test-'));
    const machines = process.env.TMPDIR;
    process.env.TMPDIR = own;
    try {
      const value = 'word '.repeat(100_000);
      const answered = run({ do: 'answer', value });
      // The request is in a file while the child reads it.
      await vi.waitFor(async () => expect(await readdir(own)).toHaveLength(1), { interval: 5 });
      expect(await answered).toEqual({ ok: true, answer: value });
      expect(await readdir(own)).toEqual([]);
    } finally {
      if (machines === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = machines;
      await rm(own, { recursive: true, force: true });
    }
  });

  it('tells the error the work threw', async () => {
    expect(await run({ do: 'throw', message: 'the database is away' })).toEqual({
      ok: false,
      end: 'failed',
      message: 'the database is away',
      name: 'Error',
    });
  });

  it('ends as crashed when the process aborts, as a native panic makes it, and the parent goes on', async () => {
    expect(await run({ do: 'abort' })).toEqual({ ok: false, end: 'crashed' });
    expect(await run({ do: 'answer', value: 'still here' })).toEqual({ ok: true, answer: 'still here' });
  });

  it('ends as out of memory when its heap is full', async () => {
    expect(await run({ do: 'fill-heap' }, { limits: { ...limits, memoryBytes: 96 * MB } })).toEqual({
      ok: false,
      end: 'out-of-memory',
    });
  });

  it('ends as out of memory when memory outside its heap passes the allowance', async () => {
    expect(await run({ do: 'fill-buffers' }, { limits: { ...limits, memoryBytes: 128 * MB } })).toEqual({
      ok: false,
      end: 'out-of-memory',
    });
  });

  it('ends as timed out when it runs past its time, even in a loop that never yields', async () => {
    expect(await run({ do: 'spin' }, { limits: { ...limits, timeoutMs: 1_500 } })).toEqual({
      ok: false,
      end: 'timed-out',
    });
  });

  it('is ended at once when its caller gives up', async () => {
    const caller = new AbortController();
    const spinning = run({ do: 'spin' }, { signal: caller.signal });
    setTimeout(() => caller.abort(), 200);
    expect(await spinning).toEqual({ ok: false, end: 'cancelled' });
  });

  it('is asked to stop, and hands its work back, when its caller gives up with a grace', async () => {
    const caller = new AbortController();
    const working = run({ do: 'hand-back' }, { signal: caller.signal, stopGraceMs: 10_000 });
    setTimeout(() => caller.abort(), 500);
    expect(await working).toEqual({ ok: true, answer: 'handed back' });
  });
});

describe('a pool of children', () => {
  const tooMany = () => new Error('Too many at once.');

  it("runs one learner's work one at a time when so limited, and another learner's beside it", async () => {
    const pool = createChildPool<Behaviour, string>({
      entry,
      limits,
      children: 2,
      perUser: { inHand: 3, running: 1 },
      tooMany,
      logger,
    });
    const firstCaller = new AbortController();
    let secondOfFirst: 'waiting' | 'done' = 'waiting';
    const first = pool.run('first', { do: 'hand-back' }, firstCaller.signal);
    const alsoFirst = pool.run('first', { do: 'answer', value: 'first-2' }, never).then((outcome) => {
      secondOfFirst = 'done';
      return outcome;
    });
    // A child is free, yet first's second piece waits while their first runs; second's runs beside it.
    expect(await pool.run('second', { do: 'answer', value: 'second-1' }, never)).toEqual({
      ok: true,
      answer: 'second-1',
    });
    expect(secondOfFirst).toBe('waiting');
    firstCaller.abort();
    expect(await first).toEqual({ ok: false, end: 'cancelled' });
    expect(await alsoFirst).toEqual({ ok: true, answer: 'first-2' });
  });

  it('refuses a learner with too much in hand, and takes the work of others', async () => {
    const pool = createChildPool<Behaviour, string>({
      entry,
      limits,
      children: 1,
      perUser: { inHand: 1, running: 1 },
      tooMany,
      logger,
    });
    const first = pool.run('busy', { do: 'answer', value: 'one', waitMs: 300 }, never);
    await expect(pool.run('busy', { do: 'answer', value: 'two' }, never)).rejects.toThrow('Too many at once.');
    const other = pool.run('other', { do: 'answer', value: 'theirs' }, never);
    expect(await first).toEqual({ ok: true, answer: 'one' });
    expect(await other).toEqual({ ok: true, answer: 'theirs' });
  });
});
