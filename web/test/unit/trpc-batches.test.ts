// The web app's tRPC client batches the calls made together, but never more of them in one request than
// the gateway accepts (TRPC_MAX_BATCH_SIZE is at least TRPC_BATCH_MAX_CALLS): more go as further batches.
import { TRPC_BATCH_MAX_CALLS } from '@engram/contracts/trpc';
import type { AppRouter } from '@engram/gateway/router';
import { createTRPCClient } from '@trpc/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { trpcLinks } from '../../src/lib/trpc-links.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the web app's tRPC batches", () => {
  it(`send calls made together in batches of at most ${TRPC_BATCH_MAX_CALLS}`, async () => {
    // Only what the browser would send is looked at: each request is answered as a lost connection.
    const sent: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      sent.push(url);
      throw new TypeError('Failed to fetch');
    });
    const client = createTRPCClient<AppRouter>({ links: trpcLinks() });
    const calls = TRPC_BATCH_MAX_CALLS + 5;
    await Promise.allSettled(Array.from({ length: calls }, () => client.cards.streak.query()));

    const callsPerRequest = sent.map((url) => new URL(url, 'http://engram.test').pathname.split(',').length);
    expect(callsPerRequest).toEqual([TRPC_BATCH_MAX_CALLS, 5]);
  });
});
