// The query cache keeps data fresh for 30 s, discards unused data after 300000 ms, retries a failed fetch
// three times backing off 1000 ms, 2000 ms, 4000 ms (at most 30000 ms), and reports it once retries are spent.
import { QueryObserver } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient, retryDelay, shouldRetry } from '../../src/lib/query-defaults.ts';

const serverError = () =>
  TRPCClientError.from({ error: { code: -32603, message: 'Something went wrong!', data: { httpStatus: 500 } } });
const notFound = () =>
  TRPCClientError.from({ error: { code: -32004, message: 'Card not found', data: { httpStatus: 404 } } });

describe('fetched data', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('is shown without fetching again for 30 s, and kept 300000 ms after the last screen showing it goes', async () => {
    const client = createQueryClient({ onQueryError: () => {} });
    const queryKey = ['cards', 'list'];
    const queryFn = vi.fn(async () => ['a card']);
    /** A screen showing the data opens (a new observer) and closes again. */
    const openScreen = async () => {
      const stop = new QueryObserver(client, { queryKey, queryFn }).subscribe(() => {});
      await vi.advanceTimersByTimeAsync(0);
      return stop;
    };
    const stopFirst = await openScreen();
    expect(queryFn).toHaveBeenCalledTimes(1);

    await vi.advanceTimersByTimeAsync(29_999);
    (await openScreen())();
    expect(queryFn).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    (await openScreen())();
    expect(queryFn).toHaveBeenCalledTimes(2);

    stopFirst();
    await vi.advanceTimersByTimeAsync(299_999);
    expect(client.getQueryData(queryKey)).toEqual(['a card']);
    await vi.advanceTimersByTimeAsync(1);
    expect(client.getQueryData(queryKey)).toBeUndefined();
  });
});

describe('the query defaults', () => {
  it('back off from 1000 ms, doubling, up to 30000 ms', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });

  it('retry server errors three times, and client errors never, except timeouts and rate limits', () => {
    expect([0, 1, 2, 3].map((count) => shouldRetry(count, serverError()))).toEqual([true, true, true, false]);
    expect(shouldRetry(0, new TypeError('Failed to fetch'))).toBe(true);
    expect(shouldRetry(0, notFound())).toBe(false);
    expect(shouldRetry(0, { status: 401 })).toBe(false);
    expect(shouldRetry(0, { status: 408 })).toBe(true);
    expect(shouldRetry(0, { status: 429 })).toBe(true);
  });
});

describe('a failing fetch', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function watch(queryFn: () => Promise<unknown>) {
    const reported: unknown[] = [];
    const client = createQueryClient({ onQueryError: (error) => reported.push(error) });
    const observer = new QueryObserver(client, { queryKey: ['cards', 'list'], queryFn });
    const stop = observer.subscribe(() => {});
    return { reported, observer, stop };
  }

  it('is retried after 1000, 2000 and 4000 ms, then reported once', async () => {
    const attemptsAt: number[] = [];
    const start = Date.now();
    const { reported, observer, stop } = watch(async () => {
      attemptsAt.push(Date.now() - start);
      throw serverError();
    });

    await vi.advanceTimersByTimeAsync(6_999);
    expect(attemptsAt).toEqual([0, 1000, 3000]);
    expect(reported).toEqual([]);

    await vi.advanceTimersByTimeAsync(1);
    expect(attemptsAt).toEqual([0, 1000, 3000, 7000]);
    expect(reported).toHaveLength(1);
    expect(observer.getCurrentResult().isError).toBe(true);
    stop();
  });

  it('with a client error is reported at once, without retries', async () => {
    const queryFn = vi.fn(async () => {
      throw notFound();
    });
    const { reported, stop } = watch(queryFn);
    await vi.advanceTimersByTimeAsync(0);
    expect(queryFn).toHaveBeenCalledTimes(1);
    expect(reported).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(queryFn).toHaveBeenCalledTimes(1);
    stop();
  });
});
