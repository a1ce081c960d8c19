// Rate limits count calls, not HTTP requests: every call of a batched request costs a point per user and
// per address, a batch has a maximum size, and the calls that reach Stripe or the model, upload, or sync a
// device's reviews have tighter limits of their own. Each test is a client at an address of its own (support/from-address.ts)
// and a user of its own, so their counts never meet within the shared window.

import { randomUUID } from 'node:crypto';
import type { AppRouter, GenerationEvent } from '@engram/gateway/router';
import { signUpThroughGateway, startTestStack, type TestStack } from '@engram/testkit/stack';
import { waitUntil } from '@engram/testkit/wait';
import { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authClient, cardsOwnedBy } from '../support/auth-client.ts';
import { clientAt, type Json } from '../support/from-address.ts';
import { webTrpcClient } from '../support/trpc-client.ts';

const PER_USER = 600;
const PER_ADDRESS = 800;
const MAX_BATCH = 250;
const STRIPE_PER_USER = 5;
const GENERATE_PER_USER = 2;
const UPLOAD_PER_USER = 2;
const FORECAST_PER_USER = 3;
const SYNC_PER_USER = 3;

let stack: TestStack;

beforeAll(async () => {
  // A stack of its own: its limits are counted in Redis under the stack's prefix, which every gateway of the
  // stack shares, and billing logs at debug level.
  stack = await startTestStack({
    // Billing logs each request its Stripe stand-in answers at debug level: the Stripe calls are counted.
    logLevel: 'debug',
    extraEnv: {
      TRPC_RATE_LIMIT_WINDOW_SECONDS: '300',
      TRPC_RATE_LIMIT_PER_USER: String(PER_USER),
      TRPC_RATE_LIMIT_PER_ADDRESS: String(PER_ADDRESS),
      TRPC_MAX_BATCH_SIZE: String(MAX_BATCH),
      TRPC_RATE_LIMIT_STRIPE_PER_USER: String(STRIPE_PER_USER),
      TRPC_RATE_LIMIT_GENERATE_PER_USER: String(GENERATE_PER_USER),
      TRPC_RATE_LIMIT_UPLOAD_PER_USER: String(UPLOAD_PER_USER),
      TRPC_RATE_LIMIT_FORECAST_PER_USER: String(FORECAST_PER_USER),
      TRPC_RATE_LIMIT_SYNC_PER_USER: String(SYNC_PER_USER),
    },
  });
});
afterAll(() => stack?.stop());

/** A batched GET of `paths` (inputs by position), as the web app's batch link sends queries. */
const batchedQuery = (paths: string[], inputs: Record<number, unknown> = {}) =>
  `/api/trpc/${paths.join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(inputs))}`;

const times = <T>(count: number, value: T): T[] => Array(count).fill(value);

const webClient = (cookie: string) => webTrpcClient(stack.url, cookie);

const failureOf = (call: Promise<unknown>) =>
  call.then(
    () => undefined,
    (error: unknown) => error as TRPCClientError<AppRouter>,
  );

async function collect(stream: AsyncIterable<GenerationEvent>) {
  const events: GenerationEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('rate limits count every call of a batch', () => {
  it("limits a user's 1,000 calls sent in four batched requests", async () => {
    const cookie = await signUpThroughGateway(stack.url, 'batcher');
    const client = clientAt('127.0.0.2', stack.url);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await client(batchedQuery(times(250, 'cards.streak')), { headers: { cookie } })).status);
    // 250 and 500 calls are within PER_USER (600); 750 are not.
    expect(statuses).toEqual([200, 200, 429, 429]);

    const refused = await client(batchedQuery(['cards.streak']), { headers: { cookie } });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.body[0].error.message).toMatch(/^Too many requests\. Please try again in \d+ seconds\.$/);
  });

  it('limits an address whose 1,000 batched calls each claim a different X-Forwarded-For', async () => {
    const client = clientAt('127.0.0.3', stack.url);
    const statuses: number[] = [];
    for (let i = 1; i <= 4; i++) {
      const headers = { 'x-forwarded-for': `203.0.113.${i}` };
      statuses.push((await client(batchedQuery(times(250, 'cards.streak')), { headers })).status);
    }
    // A visitor's calls are refused for want of a session until the address's count (PER_ADDRESS, 800) is spent.
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it('refuses a batch larger than the maximum with 400 before any of its calls runs, charging nothing', async () => {
    const cookie = await signUpThroughGateway(stack.url, 'oversized');
    const { user } = await authClient(stack).session(cookie);
    const client = clientAt('127.0.0.4', stack.url);
    const cards = Object.fromEntries(times(MAX_BATCH + 1, 0).map((_, i) => [i, { front: `card ${i}`, back: 'x' }]));
    const refused = await client(`/api/trpc/${times(MAX_BATCH + 1, 'cards.create').join(',')}?batch=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: stack.url, cookie },
      body: JSON.stringify(cards),
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toHaveLength(MAX_BATCH + 1);
    for (const answer of refused.body as Json[]) {
      expect(answer.error.data.code).toBe('BAD_REQUEST');
      expect(answer.error.message).toBe(
        `A batch may hold at most ${MAX_BATCH} calls; this one holds ${MAX_BATCH + 1}.`,
      );
    }
    expect(await cardsOwnedBy(stack, user.id)).toBe(0);

    // Had its 251 calls been counted, the second full batch would go past PER_USER (600).
    for (let i = 0; i < 2; i++) {
      const full = await client(batchedQuery(times(MAX_BATCH, 'cards.streak')), { headers: { cookie } });
      expect(full.status).toBe(200);
    }
  });
});

describe('tighter limits for calls that reach an outside service or do heavy work', () => {
  /** Requests billing's Stripe stand-in has answered for this checkout session id. */
  const stripeLookupsOf = (sessionId: string) =>
    stack.logs.filter(
      ({ component, entry }) =>
        component === 'billing' &&
        entry?.msg === 'stand-in Stripe API request' &&
        entry.path === `/v1/checkout/sessions/${sessionId}`,
    ).length;

  it('limits a burst of checkout lookups at the Stripe limit, long before the general one', async () => {
    const cookie = await signUpThroughGateway(stack.url, 'poller');
    const client = clientAt('127.0.0.5', stack.url);
    const sessionId = `cs_test_burst${Date.now()}`;
    const lookUp = () =>
      client(batchedQuery(['billing.checkoutSession'], { 0: { sessionId } }), { headers: { cookie } });
    const statuses: number[] = [];
    for (let i = 0; i < STRIPE_PER_USER + 5; i++) statuses.push((await lookUp()).status);
    // Stripe knows no such session: the allowed lookups reach it and answer 404.
    expect(statuses).toEqual([...times(STRIPE_PER_USER, 404), ...times(5, 429)]);
    await waitUntil('the allowed lookups reached the stand-in', () => stripeLookupsOf(sessionId) >= STRIPE_PER_USER);
    expect(stripeLookupsOf(sessionId)).toBe(STRIPE_PER_USER);

    // A batch holding a lookup is refused as a whole, and the user's other calls go on.
    const batch = await client(batchedQuery(['billing.checkoutSession', 'cards.streak'], { 0: { sessionId } }), {
      headers: { cookie },
    });
    expect(batch.status).toBe(429);
    expect(Number(batch.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await client(batchedQuery(['cards.streak']), { headers: { cookie } })).status).toBe(200);
    expect(stripeLookupsOf(sessionId)).toBe(STRIPE_PER_USER);

    // The web app's client reads the refusal as the rate limit, the code its message is chosen by.
    const error = await failureOf(webClient(cookie).billing.checkoutSession.query({ sessionId }));
    expect(error).toBeInstanceOf(TRPCClientError);
    expect(error?.data).toMatchObject({ code: 'TOO_MANY_REQUESTS', httpStatus: 429 });
  });

  it('limits generations and uploads per user', async () => {
    const api = webClient(await signUpThroughGateway(stack.url, 'heavy'));
    const notes = 'An atom is the smallest unit of an element.\nA molecule is a group of atoms bonded together.';
    let delivered = 0;
    for (let i = 0; i < GENERATE_PER_USER; i++) {
      const finished = (await collect(await api.ai.generate.mutate({ notes, count: 1, types: ['basic'] }))).at(-1);
      expect(finished).toMatchObject({ type: 'finished', outcome: 'complete' });
      delivered += finished?.type === 'finished' ? finished.delivered : 0;
    }
    const generation = await failureOf(api.ai.generate.mutate({ notes, count: 1, types: ['basic'] }).then(collect));
    expect(generation?.data).toMatchObject({ code: 'TOO_MANY_REQUESTS', httpStatus: 429 });

    const upload = () => {
      const form = new FormData();
      form.append('file', new File([notes], 'notes.md', { type: 'text/markdown' }));
      return api.ai.upload.mutate(form);
    };
    for (let i = 0; i < UPLOAD_PER_USER; i++) expect(await upload()).toMatchObject({ fileName: 'notes.md' });
    const refused = await failureOf(upload());
    expect(refused?.data).toMatchObject({ code: 'TOO_MANY_REQUESTS', httpStatus: 429 });
    // The refused generation was charged nothing, and the user's other calls go on.
    expect(await api.cards.generationUsage.query()).toMatchObject({ used: delivered });
  });

  it("limits forecasts (simulations, recommendations, reschedules) per user, so no one learner keeps cards' CPU busy", async () => {
    const api = webClient(await signUpThroughGateway(stack.url, 'forecaster'));
    const forecasts = [
      () => api.settings.simulate.query({ desiredRetentions: [0.9], days: 30 }),
      () => api.settings.recommendRetention.query({}),
      () => api.settings.previewReschedule.query({}),
    ];
    for (const forecast of forecasts.slice(0, FORECAST_PER_USER)) await forecast();
    const refused = await failureOf(api.settings.simulate.query({ desiredRetentions: [0.8], days: 30 }));
    expect(refused?.data).toMatchObject({ code: 'TOO_MANY_REQUESTS', httpStatus: 429 });
    // Their reviews and everything else go on.
    expect(await api.cards.streak.query()).toBeDefined();
  });

  it('limits syncs of reviews done offline per user, long before the general limit, and the user’s other calls go on', async () => {
    const api = webClient(await signUpThroughGateway(stack.url, 'syncer'));
    await api.cards.create.mutate({ front: 'What is a cell?', back: 'The unit of life' });
    const [item] = (await api.cards.listDue.query({})).items;
    const sync = () =>
      api.cards.syncReviews.mutate({
        reviews: [
          {
            reviewId: randomUUID(),
            id: item!.id,
            rating: 'good',
            durationMs: 1000,
            reviewedAt: new Date().toISOString(),
          },
        ],
      });
    for (let i = 0; i < SYNC_PER_USER; i++) expect((await sync()).results[0]).toMatchObject({ status: 'recorded' });
    const refused = await failureOf(sync());
    expect(refused?.data).toMatchObject({ code: 'TOO_MANY_REQUESTS', httpStatus: 429 });
    expect(await api.cards.streak.query()).toMatchObject({ reviewedToday: true });
  });
});
