// Stripe's webhooks: each event applied exactly once however it is delivered, the subscription always
// re-read so the latest state wins over the order of arrival, and anything not signed by Stripe for this
// body within five minutes refused without a trace.
import { randomUUID } from 'node:crypto';
import { SubscriptionChanged } from '@engram/contracts/events';
import { pruneEvents } from '@engram/kit/events/outbox-prune';
import { waitUntil } from '@engram/testkit/wait';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { billingRecords, WEBHOOK_EVENTS_RETENTION_MS } from '../src/events/index.js';
import { type BillingHarness, startBillingHarness } from './harness.js';

let billing: BillingHarness;

beforeAll(async () => {
  billing = await startBillingHarness();
});
afterAll(() => billing?.stop());

/** A learner with a paid plus subscription; returns the user and the subscription's id. */
async function subscriber(name: string) {
  const userId = `${name}-${randomUUID().slice(0, 8)}`;
  const { url } = await billing.as(userId).createCheckout({
    plan: 'plus',
    interval: 'month',
    currency: 'usd',
    email: `${userId}@example.com`,
    emailVerified: true,
  });
  await billing.submit(url, { action: 'pay' });
  await waitUntil('the plan is active', async () => (await billing.as(userId).getCustomer()).state === 'active');
  await billing.standIn.delivered();
  const { id } = await billing.db.subscription.findFirstOrThrow({ where: { userId } });
  return { userId, subscriptionId: id };
}

const recorded = (eventId: string) => billing.db.webhookEvent.count({ where: { id: eventId } });
const changes = () => billing.db.outboxEvent.count({ where: { type: SubscriptionChanged.subject } });

it('applies an event delivered twice at the same moment exactly once', async () => {
  const { userId, subscriptionId } = await subscriber('twice');
  // The change happens at Stripe; its event is delivered by the test, not by the stand-in.
  const [event] = billing.standIn.store.updateSubscription(subscriptionId, { cancel_at_period_end: 'true' }).events;
  const before = await changes();
  const answers = await Promise.all([billing.deliver(event!), billing.deliver(event!)]);
  expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
  expect(answers.map((answer) => answer.body.outcome).sort()).toEqual(['applied', 'duplicate']);
  expect(await recorded(event!.id)).toBe(1);
  expect(await changes()).toBe(before + 1);
  expect((await billing.as(userId).getCustomer()).state).toBe('scheduled_for_cancellation');
});

it('ends with the latest state when events arrive in the wrong order', async () => {
  const { userId, subscriptionId } = await subscriber('shuffled');
  const [scheduled] = billing.standIn.store.updateSubscription(subscriptionId, { cancel_at_period_end: 'true' }).events;
  const [ended] = billing.standIn.store.cancelSubscription(subscriptionId).events;
  expect((await billing.deliver(ended!)).body.outcome).toBe('applied');
  expect((await billing.deliver(scheduled!)).body.outcome).toBe('applied');
  expect(await billing.as(userId).getCustomer()).toMatchObject({ plan: 'free', state: 'not_active' });
  expect((await billing.db.subscription.findUniqueOrThrow({ where: { id: subscriptionId } })).status).toBe('canceled');
});

it('refuses a tampered body, a wrong secret, a stale timestamp and a missing signature, changing nothing', async () => {
  const { userId, subscriptionId } = await subscriber('forged');
  const [event] = billing.standIn.store.updateSubscription(subscriptionId, { cancel_at_period_end: 'true' }).events;
  const before = await changes();
  const tampered = JSON.stringify({ ...event, type: 'customer.subscription.deleted' });
  const refusals = [
    await billing.deliver(event!, { body: tampered }),
    await billing.deliver(event!, { secret: 'whsec_not_the_endpoints_secret' }),
    await billing.deliver(event!, { timestamp: Math.floor(Date.now() / 1000) - 301 }),
    await fetch(`${billing.origin}/api/webhooks/stripe`, { method: 'POST', body: JSON.stringify(event) }).then(
      async (response) => ({ status: response.status, body: (await response.json()) as { code?: string } }),
    ),
  ];
  for (const refusal of refusals) expect(refusal).toMatchObject({ status: 400, body: { code: 'INVALID_WEBHOOK' } });
  expect(await recorded(event!.id)).toBe(0);
  expect(await changes()).toBe(before);
  expect((await billing.as(userId).getCustomer()).state).toBe('active');
  // The genuine delivery of the same event is still applied: the refusals recorded nothing.
  expect((await billing.deliver(event!)).body.outcome).toBe('applied');
});

it('records an event it has no use for, once, and changes nothing', async () => {
  const { events } = billing.standIn.store.createCustomer({ email: 'someone@example.com' });
  const before = await changes();
  expect((await billing.deliver(events[0]!)).body.outcome).toBe('ignored');
  expect((await billing.deliver(events[0]!)).body.outcome).toBe('duplicate');
  expect(await changes()).toBe(before);
});

it('forgets a handled Stripe event once it is 30 days old, long after Stripe stops retrying it', async () => {
  const stale = `evt_${randomUUID()}`;
  const fresh = `evt_${randomUUID()}`;
  const now = Date.now();
  await billing.db.webhookEvent.createMany({
    data: [
      {
        id: stale,
        type: 'customer.subscription.updated',
        receivedAt: new Date(now - WEBHOOK_EVENTS_RETENTION_MS - 60_000),
      },
      { id: fresh, type: 'customer.subscription.updated', receivedAt: new Date(now - 3 * 86_400_000) },
    ],
  });

  // The running relay takes the same lock for its passes: a clean-up pass waits for its turn.
  await waitUntil(
    'a clean-up pass ran',
    async () => (await pruneEvents(billing.events!.pool, { records: billingRecords })).lockHeld,
  );

  expect([await recorded(stale), await recorded(fresh)]).toEqual([0, 1]);
});
