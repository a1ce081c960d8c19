// Billing's part of a full data export (ExportUserData), on the real stripe SDK and the local stand-in: a
// learner who paid for a plan and scheduled its cancellation finds their plan, Stripe customer, subscription
// and checkout in it, and nothing of another subscriber; a learner who never paid finds the free plan.
import { randomUUID } from 'node:crypto';
import { waitUntil } from '@engram/testkit/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BillingHarness, startBillingHarness } from '../harness.js';

let billing: BillingHarness;

beforeAll(async () => {
  billing = await startBillingHarness();
});
afterAll(() => billing?.stop());

const newUser = (name: string) => `${name}-${randomUUID().slice(0, 8)}`;

/** Checks out and pays on the stand-in's page; resolves once the webhooks made the plan active. */
async function subscribe(userId: string, plan: string, interval: string, currency: string) {
  const { url } = await billing
    .as(userId)
    .createCheckout({ plan, interval, currency, email: `${userId}@example.com`, emailVerified: true });
  expect((await billing.submit(url, { action: 'pay' })).status).toBe(303);
  await waitUntil('the plan is active', async () => (await billing.as(userId).getCustomer()).state === 'active');
}

/** The part as the test reads it: the fields it looks into by name, the rest as they come. */
interface BillingPart {
  plan: { generatedCardsPerPeriod: number } & Record<string, unknown>;
  customer: unknown;
  subscriptions: unknown[];
  checkouts: unknown[];
}

async function exportOf(userId: string) {
  const { json } = await billing.as(userId).exportUserData();
  return { json, part: JSON.parse(json) as BillingPart };
}

describe("a learner's part of the data export", () => {
  it('holds their plan, Stripe customer, subscription with its cancellation, and checkout', async () => {
    const userId = newUser('subscriber');
    await subscribe(userId, 'plus', 'month', 'eur');
    const { url } = await billing.as(userId).createPortal();
    const subscription = await billing.db.subscription.findFirstOrThrow({ where: { userId } });
    const cancelled = await billing.submit(url, { action: 'cancel_at_period_end', subscription: subscription.id });
    expect(cancelled.status).toBe(303);
    await waitUntil(
      'the cancellation is recorded',
      async () => (await billing.as(userId).getCustomer()).state === 'scheduled_for_cancellation',
    );

    const { part } = await exportOf(userId);
    const customer = await billing.db.customer.findUniqueOrThrow({ where: { userId } });
    expect(part.plan).toMatchObject({ plan: 'plus', state: 'scheduled_for_cancellation' });
    expect(part.plan.generatedCardsPerPeriod).toBeGreaterThan(0);
    expect(part.customer).toMatchObject({
      stripeCustomerId: customer.stripeCustomerId,
      email: `${userId}@example.com`,
    });
    expect(part.subscriptions).toEqual([
      expect.objectContaining({
        stripeSubscriptionId: subscription.id,
        plan: 'plus',
        interval: 'month',
        currency: 'eur',
        status: 'active',
        cancelAtPeriodEnd: true,
        currentPeriodEnd: expect.any(String),
      }),
    ]);
    expect(part.checkouts).toEqual([
      expect.objectContaining({
        stripeSessionId: expect.stringMatching(/^cs_/),
        plan: 'plus',
        interval: 'month',
        currency: 'eur',
        status: 'complete',
      }),
    ]);
  });

  it("holds the free plan for a learner who never paid, and nothing of another subscriber's", async () => {
    const subscriber = newUser('other-subscriber');
    await subscribe(subscriber, 'pro', 'year', 'usd');
    const theirs = await billing.db.customer.findUniqueOrThrow({ where: { userId: subscriber } });
    const theirSubscription = await billing.db.subscription.findFirstOrThrow({ where: { userId: subscriber } });

    const { json, part } = await exportOf(newUser('free-learner'));
    expect(part).toMatchObject({
      plan: { plan: 'free', state: null },
      customer: null,
      subscriptions: [],
      checkouts: [],
    });
    for (const secret of [subscriber, theirs.stripeCustomerId, theirSubscription.id]) {
      expect(json).not.toContain(secret);
    }
  });
});
