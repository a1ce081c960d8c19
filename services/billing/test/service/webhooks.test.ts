// Stripe's webhooks: each event applied exactly once however it is delivered, the subscription always
// re-read so the latest state wins over the order of arrival (with no transaction open while Stripe is
// asked), a second subscription of one user cancelled and refunded, and anything not signed by Stripe
// for this body within five minutes refused without a trace. Billing runs in a database of its own here,
// so its backends in pg_stat_activity are the service's alone.
import { randomBytes, randomUUID } from 'node:crypto';
import { SubscriptionChanged } from '@engram/contracts/events';
import { pruneEvents } from '@engram/kit/events/outbox-prune';
import { EventEnvelope } from '@engram/proto/events/v1/envelope';
import { testContext } from '@engram/testkit/context';
import { createDatabase, dropDatabase } from '@engram/testkit/databases';
import { waitUntil } from '@engram/testkit/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingRecords, WEBHOOK_EVENTS_RETENTION_MS } from '../../src/events/index.js';
import { type BillingHarness, startBillingHarness } from '../harness.js';

const databaseName = `${new URL(testContext().databaseUrl).pathname.slice(1)}_webhooks_${randomBytes(3).toString('hex')}`;

let billing: BillingHarness;

beforeAll(async () => {
  billing = await startBillingHarness({ databaseUrl: await createDatabase(testContext().databaseUrl, databaseName) });
});
afterAll(async () => {
  await billing?.stop();
  await dropDatabase(testContext().databaseUrl, databaseName);
});

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

/** The backends of billing's Prisma client (webhooks, gRPC, consumers) with a transaction open. */
async function openTransactions() {
  return billing.db.$queryRaw<{ state: string; query: string }[]>`
    SELECT state, query FROM pg_stat_activity
     WHERE datname = current_database() AND application_name = 'billing'
       AND pid <> pg_backend_pid() AND xact_start IS NOT NULL`;
}

const subscriptionPath = (id: string) => new RegExp(`^/v1/subscriptions/${id}$`);

describe('while Stripe is asked', () => {
  it('holds no database transaction open', async () => {
    const { userId, subscriptionId } = await subscriber('patient');
    const [event] = billing.standIn.store.updateSubscription(subscriptionId, { cancel_at_period_end: 'true' }).events;
    const held = billing.standIn.holdNext('GET', subscriptionPath(subscriptionId));
    const delivery = billing.deliver(event!);
    await held.reached;
    const open = await openTransactions();
    held.release();
    expect(open).toEqual([]);
    expect((await delivery).body.outcome).toBe('applied');
    expect((await billing.as(userId).getCustomer()).state).toBe('scheduled_for_cancellation');
  });

  it('keeps the newer state when an older answer from Stripe comes back after it was stored', async () => {
    const { userId, subscriptionId } = await subscriber('overtaken');
    const [scheduled] = billing.standIn.store.updateSubscription(subscriptionId, {
      cancel_at_period_end: 'true',
    }).events;
    const held = billing.standIn.holdNext('GET', subscriptionPath(subscriptionId));
    const slow = billing.deliver(scheduled!);
    // Its answer is made now: scheduled for cancellation.
    await held.reached;
    const [resumed] = billing.standIn.store.updateSubscription(subscriptionId, {
      cancel_at_period_end: 'false',
    }).events;
    expect((await billing.deliver(resumed!)).body.outcome).toBe('applied');
    held.release();
    expect((await slow).body.outcome).toBe('applied');
    expect((await billing.as(userId).getCustomer()).state).toBe('active');
  });
});

describe('a second subscription of one learner', () => {
  /** A learner with one checkout opened through Engram and a second made at Stripe (a tab Engram never saw). */
  async function twoCheckouts(name: string) {
    const userId = `${name}-${randomUUID().slice(0, 8)}`;
    const first = await billing.as(userId).createCheckout({
      plan: 'plus',
      interval: 'month',
      currency: 'usd',
      email: `${userId}@example.com`,
      emailVerified: true,
    });
    const { stripeCustomerId: customer } = await billing.db.customer.findUniqueOrThrow({ where: { userId } });
    const second = await billing.stripe.checkout.sessions.create({
      mode: 'subscription',
      customer,
      client_reference_id: userId,
      line_items: [{ price: 'price_pro_monthly_usd', quantity: 1 }],
      success_url: `${billing.origin}/billing/success`,
      cancel_url: `${billing.origin}/billing/cancel`,
      subscription_data: { metadata: { userId } },
    });
    const sessionOf = (url: string) => /cs_test_\w+$/.exec(url)?.[0] ?? '';
    return { userId, customer, first: sessionOf(first.url), second: second.id };
  }

  /** What Stripe holds of the subscription: its status and the refunds of its latest invoice's payment. */
  function atStripe(subscriptionId: string) {
    const { state } = billing.standIn.store;
    const subscription = billing.standIn.store.subscription(subscriptionId);
    const payments = Object.values(state.invoicePayments).filter(
      (payment) => payment.invoice === subscription.latest_invoice,
    );
    const paymentIntents = payments.map((payment) => (payment.payment as { payment_intent: string }).payment_intent);
    const refunded = Object.values(state.refunds)
      .filter((refund) => paymentIntents.includes(refund.payment_intent as string))
      .reduce((sum, refund) => sum + (refund.amount as number), 0);
    const paid = payments.reduce((sum, payment) => sum + (payment.amount_paid as number), 0);
    return { status: subscription.status, paid, refunded };
  }

  async function changedPlansOf(userId: string) {
    const rows = await billing.db.outboxEvent.findMany({ where: { type: SubscriptionChanged.subject } });
    return rows
      .map((row) => SubscriptionChanged.message.decode(EventEnvelope.decode(row.payload).payload))
      .filter((event) => event.userId === userId)
      .map((event) => event.plan);
  }

  it('keeps the first when two checkouts are paid in two tabs, and cancels and refunds the second', async () => {
    const { userId, first, second } = await twoCheckouts('two-tabs');
    billing.standIn.emit(billing.standIn.store.payCheckout(first).events);
    billing.standIn.emit(billing.standIn.store.payCheckout(second).events);
    const kept = billing.standIn.store.session(first).subscription as string;
    const undone = billing.standIn.store.session(second).subscription as string;
    await waitUntil('the second subscription is recorded as cancelled', async () => {
      const row = await billing.db.subscription.findUnique({ where: { id: undone } });
      return row?.status === 'canceled';
    });
    expect(atStripe(kept)).toEqual({ status: 'active', paid: 800, refunded: 0 });
    expect(atStripe(undone)).toEqual({ status: 'canceled', paid: 1500, refunded: 1500 });
    expect(await billing.as(userId).getCustomer()).toMatchObject({ plan: 'plus', state: 'active' });
    expect(await changedPlansOf(userId)).toEqual(['plus']);
    await billing.standIn.delivered();
    const checkouts = await billing.db.checkout.findMany({ where: { userId } });
    expect(checkouts.map((checkout) => checkout.status)).toEqual(['complete']);
  });

  it("keeps exactly one when both checkouts' events arrive at the same moment", async () => {
    const { userId, first, second } = await twoCheckouts('same-moment');
    // Paid at Stripe; the test delivers the events itself, all at once.
    const events = [
      ...billing.standIn.store.payCheckout(first).events,
      ...billing.standIn.store.payCheckout(second).events,
    ];
    const answers = await Promise.all(events.map((event) => billing.deliver(event)));
    expect(answers.map((answer) => answer.status)).toEqual(events.map(() => 200));
    const subscriptions = [first, second].map((id) => billing.standIn.store.session(id).subscription as string);
    const states = subscriptions.map(atStripe);
    expect(states.map((state) => state.status).sort()).toEqual(['active', 'canceled']);
    const undone = states.find((state) => state.status === 'canceled');
    expect(undone?.refunded).toBe(undone?.paid);
    expect(states.find((state) => state.status === 'active')?.refunded).toBe(0);
    await waitUntil('both are recorded as Stripe has them', async () => {
      const rows = await billing.db.subscription.findMany({ where: { userId } });
      return (
        rows
          .map((row) => row.status)
          .sort()
          .join() === 'active,canceled'
      );
    });
    expect((await billing.as(userId).getCustomer()).state).toBe('active');
  });
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
