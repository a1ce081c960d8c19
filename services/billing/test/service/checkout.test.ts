// Paying for a plan end to end on the real stripe SDK and the local stand-in: checkout, the signed
// webhooks it sends, the plan the learner then has, the portal, a failed renewal, the refusals, one
// customer per user, and what happens to it all when the account is deleted.
import { randomUUID } from 'node:crypto';
import { BILLING_REASONS } from '@engram/contracts/billing';
import { SubscriptionChanged, UserDeleted } from '@engram/contracts/events';
import { eventSubject } from '@engram/kit/events/stream';
import { createLogger } from '@engram/kit/logger';
import { connectNats } from '@engram/kit/nats';
import { Actor_Kind, EventEnvelope } from '@engram/proto/events/v1/envelope';
import { grpcFailure } from '@engram/testkit/grpc';
import { waitUntil } from '@engram/testkit/wait';
import { status } from '@grpc/grpc-js';
import { jetstream } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BillingHarness, startBillingHarness } from '../harness.js';

let billing: BillingHarness;

beforeAll(async () => {
  billing = await startBillingHarness();
});
afterAll(() => billing?.stop());

const newUser = (name: string) => `${name}-${randomUUID().slice(0, 8)}`;
const DAY_MS = 86_400_000;

async function checkout(userId: string, plan = 'pro', interval = 'year', currency = 'brl') {
  return billing
    .as(userId)
    .createCheckout({ plan, interval, currency, email: `${userId}@example.com`, emailVerified: true });
}

/** Checks out and pays on the stand-in's page; resolves once the webhooks made the plan active. */
async function subscribe(userId: string, plan = 'pro', interval = 'year', currency = 'brl') {
  const { url } = await checkout(userId, plan, interval, currency);
  const paid = await billing.submit(url, { action: 'pay' });
  expect(paid.status).toBe(303);
  expect(paid.headers.get('location')).toMatch(/\/billing\/success\?session_id=cs_test_\w+$/);
  await waitUntil('the plan is active', async () => (await billing.as(userId).getCustomer()).state === 'active');
}

/** The checkout sessions opened at Stripe for the learner. */
function sessionsAtStripe(userId: string) {
  return Object.values(billing.standIn.store.state.sessions).filter(
    (session) => session.client_reference_id === userId,
  );
}

async function subscriptionOf(userId: string) {
  return billing.db.subscription.findFirstOrThrow({ where: { userId } });
}

/** Acts on the stand-in's customer portal as the learner would. */
async function inPortal(userId: string, action: string) {
  const { url } = await billing.as(userId).createPortal();
  const done = await billing.submit(url, { action, subscription: (await subscriptionOf(userId)).id });
  expect(done.status).toBe(303);
}

/** Announces the deletion of the learner's account, as identity does. */
async function deleteAccount(userId: string) {
  const running = billing.events;
  if (!running) throw new Error('the harness runs no events');
  const nats = await connectNats(running.natsUrl, 'billing-test', createLogger({ service: 't', level: 'silent' }));
  const envelope = EventEnvelope.encode({
    id: randomUUID(),
    type: UserDeleted.subject,
    occurredAt: new Date(),
    actor: { kind: Actor_Kind.KIND_SYSTEM, id: 'identity' },
    payload: Buffer.from(UserDeleted.message.encode({ userId }).finish()),
  }).finish();
  await jetstream(nats).publish(eventSubject(running.settings.subjectPrefix, UserDeleted.subject), envelope);
  await nats.close();
}

async function changedEventsOf(userId: string) {
  const rows = await billing.db.outboxEvent.findMany({
    where: { type: SubscriptionChanged.subject },
    orderBy: { seq: 'asc' },
  });
  return rows
    .map((row) => SubscriptionChanged.message.decode(EventEnvelope.decode(row.payload).payload))
    .filter((event) => event.userId === userId);
}

describe('checkout', () => {
  it('turns a paid checkout into an active plan and says so in a plan-changed event', async () => {
    const userId = newUser('payer');
    await subscribe(userId);
    const customer = await billing.as(userId).getCustomer();
    expect(customer).toMatchObject({
      plan: 'pro',
      state: 'active',
      interval: 'year',
      currency: 'brl',
      endsAt: undefined,
    });
    expect(customer.renewsAt!.getTime() - Date.now()).toBeGreaterThan(360 * DAY_MS);
    const entitlements = await billing.as(userId).getEntitlements();
    expect(entitlements).toMatchObject({ plan: 'pro', generatedCardsPerPeriod: 10_000 });
    expect(entitlements.periodEnd).toEqual(customer.renewsAt);
    const changes = await changedEventsOf(userId);
    expect(changes.at(-1)).toMatchObject({ plan: 'pro', state: 'active' });
  });

  it('refuses an address that is not verified, and creates no customer', async () => {
    const userId = newUser('unverified');
    const error = await grpcFailure(
      billing.as(userId).createCheckout({ plan: 'plus', interval: 'month', currency: 'usd', email: 'x@example.com' }),
    );
    expect(error.code).toBe(status.FAILED_PRECONDITION);
    expect(error.reason).toBe(BILLING_REASONS.emailVerificationRequired);
    expect(await billing.db.customer.count({ where: { userId } })).toBe(0);
  });

  it('refuses a second checkout while the learner is subscribed (plan changes go through the portal)', async () => {
    const userId = newUser('twice');
    await subscribe(userId, 'plus', 'month', 'usd');
    const error = await grpcFailure(checkout(userId, 'pro', 'month', 'usd'));
    expect(error.reason).toBe(BILLING_REASONS.alreadySubscribed);
  });

  it('refuses a checkout while a renewal payment is past due (the portal is where it is paid)', async () => {
    const userId = newUser('past-due');
    await subscribe(userId, 'plus', 'month', 'usd');
    await inPortal(userId, 'fail_renewal');
    await waitUntil('the renewal is past due', async () => (await subscriptionOf(userId)).status === 'past_due');
    const error = await grpcFailure(checkout(userId, 'pro', 'month', 'usd'));
    expect(error.code).toBe(status.FAILED_PRECONDITION);
    expect(error.reason).toBe(BILLING_REASONS.alreadySubscribed);
    expect(sessionsAtStripe(userId)).toHaveLength(1);
  });

  it('opens a new checkout after the subscription has ended', async () => {
    const userId = newUser('returning');
    await subscribe(userId, 'plus', 'month', 'usd');
    await inPortal(userId, 'cancel_now');
    await waitUntil('the plan has ended', async () => (await billing.as(userId).getCustomer()).plan === 'free');
    await subscribe(userId, 'pro', 'month', 'usd');
  });

  it('refuses a plan, interval or currency that does not exist, with the reason', async () => {
    const error = await grpcFailure(checkout(newUser('typo'), 'gold', 'month', 'usd'));
    expect(error.code).toBe(status.INVALID_ARGUMENT);
    expect(error.message).toBe('Plan must be plus or pro.');
    const currency = await grpcFailure(checkout(newUser('typo'), 'pro', 'month', 'jpy'));
    expect(currency.message).toBe('Currency must be usd, eur or brl.');
  });

  it("tells the success page when the paid checkout has become the learner's plan, and only its owner", async () => {
    const userId = newUser('waiting');
    const { url } = await checkout(userId, 'plus', 'month', 'eur');
    const sessionId = /cs_test_\w+/.exec(url)?.[0] ?? '';
    expect(await billing.as(userId).getCheckout({ sessionId })).toMatchObject({
      status: 'open',
      paid: false,
      fulfilled: false,
      plan: '',
    });
    expect((await grpcFailure(billing.as(newUser('nosy')).getCheckout({ sessionId }))).code).toBe(status.NOT_FOUND);

    await billing.submit(url, { action: 'pay' });
    await waitUntil(
      'the checkout is fulfilled',
      async () => (await billing.as(userId).getCheckout({ sessionId })).fulfilled,
    );
    expect(await billing.as(userId).getCheckout({ sessionId })).toEqual({
      status: 'complete',
      paid: true,
      fulfilled: true,
      plan: 'plus',
      interval: 'month',
      currency: 'eur',
    });
  });

  it('answers a malformed or unknown checkout session id with a clear error', async () => {
    const malformed = await grpcFailure(billing.as(newUser('typo')).getCheckout({ sessionId: 'not-a-session' }));
    expect(malformed.code).toBe(status.INVALID_ARGUMENT);
    expect(malformed.message).toBe('This is not a checkout session id.');
    const unknown = await grpcFailure(billing.as(newUser('typo')).getCheckout({ sessionId: 'cs_test_doesnotexist' }));
    expect(unknown.code).toBe(status.NOT_FOUND);
    expect(unknown.message).toBe('Checkout session not found');
  });

  it('offers every click the one checkout when a learner starts several at once, with one Stripe customer', async () => {
    const userId = newUser('eager');
    const answers = await Promise.all(Array.from({ length: 5 }, () => checkout(userId, 'plus', 'year', 'eur')));
    expect(new Set(answers.map((answer) => answer.url)).size).toBe(1);
    expect(sessionsAtStripe(userId)).toHaveLength(1);
    expect(await billing.db.customer.count({ where: { userId } })).toBe(1);
    const atStripe = Object.values(billing.standIn.store.state.customers).filter(
      (customer) => (customer.metadata as { userId?: string }).userId === userId,
    );
    expect(atStripe).toHaveLength(1);
  });

  it('gives a second click the checkout Stripe is still making for the first', async () => {
    const userId = newUser('double-click');
    const held = billing.standIn.holdNext('POST', /^\/v1\/checkout\/sessions$/);
    const first = checkout(userId, 'plus', 'month', 'usd');
    await held.reached;
    const second = await checkout(userId, 'plus', 'month', 'usd');
    held.release();
    expect((await first).url).toBe(second.url);
    expect(sessionsAtStripe(userId)).toHaveLength(1);
  });

  it('offers the same checkout again to a learner who came back from Stripe without paying and subscribes again', async () => {
    const userId = newUser('hesitant');
    const first = await checkout(userId, 'plus', 'month', 'usd');
    // Back to Engram from the checkout page's cancel link: nothing is paid, the session stays open.
    const again = await checkout(userId, 'plus', 'month', 'usd');
    expect(again.url).toBe(first.url);
    expect(sessionsAtStripe(userId)).toHaveLength(1);
    expect((await billing.submit(again.url, { action: 'pay' })).status).toBe(303);
    await waitUntil('the plan is active', async () => (await billing.as(userId).getCustomer()).state === 'active');
  });

  it('expires the open checkout at Stripe and opens another when the learner picks another plan, period or currency', async () => {
    const userId = newUser('undecided');
    const plusMonthly = await checkout(userId, 'plus', 'month', 'usd');
    const proMonthly = await checkout(userId, 'pro', 'month', 'usd');
    const proYearly = await checkout(userId, 'pro', 'year', 'usd');
    const proYearlyInReais = await checkout(userId, 'pro', 'year', 'brl');
    const urls = [plusMonthly, proMonthly, proYearly, proYearlyInReais].map((answer) => answer.url);
    expect(new Set(urls).size).toBe(4);
    const statuses = sessionsAtStripe(userId)
      .sort((a, b) => urls.indexOf(a.url as string) - urls.indexOf(b.url as string))
      .map((session) => session.status);
    expect(statuses.filter((status) => status === 'open')).toHaveLength(1);
    expect(statuses.filter((status) => status === 'expired')).toHaveLength(3);
    // The earlier pages can no longer take a payment; the last one can.
    expect((await billing.submit(plusMonthly.url, { action: 'pay' })).status).toBe(400);
    expect((await billing.submit(proYearlyInReais.url, { action: 'pay' })).status).toBe(303);
    await waitUntil('the plan is active', async () => (await billing.as(userId).getCustomer()).state === 'active');
    expect(await billing.as(userId).getCustomer()).toMatchObject({ plan: 'pro', interval: 'year', currency: 'brl' });
    await billing.standIn.delivered();
    const rows = await billing.db.checkout.findMany({ where: { userId }, orderBy: { createdAt: 'asc' } });
    expect(rows.map((row) => row.status)).toEqual(['expired', 'expired', 'expired', 'complete']);
  });

  it('opens a new checkout rather than offer one with only minutes left to pay', async () => {
    const userId = newUser('last-minute');
    const first = await checkout(userId, 'plus', 'month', 'usd');
    const [session] = sessionsAtStripe(userId);
    session!.expires_at = Math.floor(Date.now() / 1000) + 5 * 60;
    const again = await checkout(userId, 'plus', 'month', 'usd');
    expect(again.url).not.toBe(first.url);
    expect(billing.standIn.store.session(session!.id as string).status).toBe('expired');
  });

  it("says the learner is subscribed when their open checkout was paid a moment ago, before Stripe's webhooks arrive", async () => {
    const userId = newUser('quick');
    await checkout(userId, 'plus', 'month', 'usd');
    const [session] = sessionsAtStripe(userId);
    // Paid at Stripe; the webhooks are held back for now.
    const paid = billing.standIn.store.payCheckout(session!.id as string);
    const error = await grpcFailure(checkout(userId, 'plus', 'month', 'usd'));
    expect(error.code).toBe(status.FAILED_PRECONDITION);
    expect(error.reason).toBe(BILLING_REASONS.alreadySubscribed);
    expect(sessionsAtStripe(userId)).toHaveLength(1);
    billing.standIn.emit(paid.events);
    await waitUntil('the plan is active', async () => (await billing.as(userId).getCustomer()).state === 'active');
  });

  it('leaves one checkout payable when two tabs start checkouts for different plans at once', async () => {
    const userId = newUser('two-tabs');
    await checkout(userId, 'plus', 'month', 'usd');
    const answers = await Promise.allSettled([
      checkout(userId, 'plus', 'year', 'usd'),
      checkout(userId, 'pro', 'month', 'usd'),
    ]);
    for (const answer of answers) {
      if (answer.status === 'rejected') expect(answer.reason).toMatchObject({ code: status.UNAVAILABLE });
    }
    expect(answers.some((answer) => answer.status === 'fulfilled')).toBe(true);
    const open = sessionsAtStripe(userId).filter((session) => session.status === 'open');
    expect(open).toHaveLength(1);
    const row = await billing.db.checkout.findFirstOrThrow({ where: { userId, status: 'open' } });
    expect(row.sessionId).toBe(open[0]!.id);
  });

  it('opens a new checkout once the open one has expired unpaid', async () => {
    const userId = newUser('dawdler');
    const { url } = await checkout(userId, 'plus', 'month', 'usd');
    const [session] = sessionsAtStripe(userId);
    // An hour to pay, so that an abandoned checkout holds back a new one no longer than that.
    const lifetime = (session!.expires_at as number) - (session!.created as number);
    expect(lifetime).toBeGreaterThan(3590);
    expect(lifetime).toBeLessThanOrEqual(3600);
    billing.standIn.emit(billing.standIn.store.expireCheckout(session!.id as string).events);
    await waitUntil('the checkout is closed', async () => {
      const row = await billing.db.checkout.findFirst({ where: { userId } });
      return row?.status === 'expired';
    });
    expect((await billing.submit(url, { action: 'pay' })).status).toBe(400);
    await subscribe(userId, 'plus', 'month', 'usd');
  });

  it('counts a checkout past its hour as expired before Stripe says so, and a late payment of it as paid', async () => {
    const userId = newUser('late');
    const { url } = await checkout(userId, 'plus', 'month', 'usd');
    // The hour is over on billing's clock; Stripe's, a little behind, still takes the payment.
    await billing.db.checkout.updateMany({ where: { userId }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    await checkout(userId, 'pro', 'month', 'usd');
    expect(sessionsAtStripe(userId)).toHaveLength(2);
    await billing.submit(url, { action: 'pay' });
    await waitUntil('the plan is active', async () => (await billing.as(userId).getCustomer()).state === 'active');
    await billing.standIn.delivered();
    const rows = await billing.db.checkout.findMany({ where: { userId }, orderBy: { createdAt: 'asc' } });
    expect(rows.map((row) => row.status)).toEqual(['complete', 'open']);
  });

  it('lets the learner try again at once when Stripe fails to open the checkout', async () => {
    const userId = newUser('unlucky');
    billing.standIn.failNext('POST', /^\/v1\/checkout\/sessions$/, {
      status: 400,
      code: 'parameter_invalid',
      message: 'Invalid request (test).',
    });
    expect((await grpcFailure(checkout(userId, 'plus', 'month', 'usd'))).code).toBe(status.INTERNAL);
    expect(await billing.db.checkout.count({ where: { userId } })).toBe(0);
    await subscribe(userId, 'plus', 'month', 'usd');
  });
});

describe('after checkout', () => {
  it('keeps the plan until the period ends when the learner cancels in the portal, and can resume', async () => {
    const userId = newUser('leaving');
    await subscribe(userId, 'plus', 'month', 'eur');
    await inPortal(userId, 'cancel_at_period_end');
    await waitUntil(
      'the cancellation is scheduled',
      async () => (await billing.as(userId).getCustomer()).state === 'scheduled_for_cancellation',
    );
    const scheduled = await billing.as(userId).getCustomer();
    expect(scheduled).toMatchObject({ plan: 'plus', renewsAt: undefined });
    expect(scheduled.endsAt).toEqual((await subscriptionOf(userId)).currentPeriodEnd);
    await inPortal(userId, 'resume');
    await waitUntil('it is active again', async () => (await billing.as(userId).getCustomer()).state === 'active');
  });

  it('drops to the free plan when a renewal payment fails, and back when it succeeds', async () => {
    const userId = newUser('declined');
    await subscribe(userId, 'pro', 'month', 'usd');
    await inPortal(userId, 'fail_renewal');
    await waitUntil('the plan is lost', async () => (await billing.as(userId).getCustomer()).plan === 'free');
    expect(await billing.as(userId).getCustomer()).toMatchObject({ state: 'not_active' });
    expect(await billing.as(userId).getEntitlements()).toMatchObject({ plan: 'free', generatedCardsPerPeriod: 200 });
    expect((await changedEventsOf(userId)).at(-1)).toMatchObject({ plan: 'free', state: 'not_active' });
    await inPortal(userId, 'renew');
    await waitUntil('the plan is back', async () => (await billing.as(userId).getCustomer()).plan === 'pro');
  });

  it('shows a learner only their own subscription, and no portal without one', async () => {
    const owner = newUser('owner');
    await subscribe(owner, 'plus', 'month', 'usd');
    const stranger = newUser('stranger');
    expect(await billing.as(stranger).getCustomer()).toMatchObject({ plan: 'free', state: '' });
    const error = await grpcFailure(billing.as(stranger).createPortal());
    expect(error.code).toBe(status.NOT_FOUND);
    expect(error.reason).toBe(BILLING_REASONS.notFound);
  });

  it('cancels the subscription at Stripe and forgets the learner when their account is deleted', async () => {
    const userId = newUser('deleted');
    await subscribe(userId, 'plus', 'month', 'brl');
    const subscriptionId = (await subscriptionOf(userId)).id;
    await deleteAccount(userId);
    await waitUntil(
      'the learner is forgotten',
      async () => (await billing.db.customer.count({ where: { userId } })) === 0,
    );
    const customerAtStripe = Object.values(billing.standIn.store.state.customers).find(
      (customer) => (customer.metadata as { userId?: string }).userId === userId,
    );
    expect(customerAtStripe).toBeUndefined();
    expect(billing.standIn.store.subscription(subscriptionId).status).toBe('canceled');
    // The cancellation's own webhooks come after the erasure and bring nothing back.
    await billing.standIn.delivered();
    expect(await billing.db.subscription.count({ where: { userId } })).toBe(0);
    expect(await billing.db.customer.count({ where: { userId } })).toBe(0);
    expect(await billing.db.checkout.count({ where: { userId } })).toBe(0);
  });
});

describe('erasing a deleted account at Stripe', () => {
  /** A subscribed learner whose Stripe customer is `customer`. */
  async function subscribedCustomer(name: string) {
    const userId = newUser(name);
    await subscribe(userId, 'plus', 'month', 'eur');
    const { stripeCustomerId } = await billing.db.customer.findUniqueOrThrow({ where: { userId } });
    return { userId, customer: stripeCustomerId, subscriptionId: (await subscriptionOf(userId)).id };
  }

  async function erased(userId: string, customer: string, subscriptionId: string) {
    await waitUntil(
      'the learner is forgotten',
      async () => (await billing.db.customer.count({ where: { userId } })) === 0,
    );
    expect(billing.standIn.store.state.customers[customer]).toBeUndefined();
    expect(billing.standIn.store.subscription(subscriptionId).status).toBe('canceled');
  }

  it('tries again while Stripe answers with a server error, until the customer is deleted', async () => {
    const { userId, customer, subscriptionId } = await subscribedCustomer('stripe-down');
    // Three answers: the SDK's request and both of its retries, so the erasure itself fails once.
    const failures = billing.standIn.failNext(
      'DELETE',
      new RegExp(`^/v1/customers/${customer}$`),
      { status: 500, code: null, message: 'An unknown error occurred (test).' },
      3,
    );
    await deleteAccount(userId);
    await failures.answered;
    await erased(userId, customer, subscriptionId);
  });

  it('tries again when Stripe refuses the deletion for any reason but a missing customer', async () => {
    const { userId, customer, subscriptionId } = await subscribedCustomer('stripe-refuses');
    // A 404 that is not "No such customer" (a proxy's, say): the customer may still be charged.
    const failures = billing.standIn.failNext('DELETE', new RegExp(`^/v1/customers/${customer}$`), {
      status: 404,
      code: null,
      message: `Unrecognized request URL (DELETE: /v1/customers/${customer}).`,
    });
    await deleteAccount(userId);
    await failures.answered;
    await erased(userId, customer, subscriptionId);
  });

  it('completes when Stripe no longer has the customer ("No such customer")', async () => {
    const { userId, customer, subscriptionId } = await subscribedCustomer('deleted-at-stripe');
    billing.standIn.emit(billing.standIn.store.deleteCustomer(customer).events);
    await deleteAccount(userId);
    await erased(userId, customer, subscriptionId);
    expect(await billing.db.subscription.count({ where: { userId } })).toBe(0);
  });
});

describe('the plans', () => {
  it('lists every plan in every interval and currency, and follows a price changed at Stripe', async () => {
    const { prices, standIn, limits } = await billing.as(newUser('browser')).listPlans();
    expect(standIn).toBe(true);
    expect(limits).toEqual([
      { plan: 'free', generatedCardsPerPeriod: 200 },
      { plan: 'plus', generatedCardsPerPeriod: 2_000 },
      { plan: 'pro', generatedCardsPerPeriod: 10_000 },
    ]);
    expect(prices).toHaveLength(12);
    expect(prices).toContainEqual({ plan: 'pro', interval: 'year', currency: 'brl', unitAmount: 74_900 });
    const price = billing.standIn.store.price('price_plus_monthly_usd');
    price.unit_amount = 900;
    await waitUntil('the new price is offered', async () =>
      (await billing.as(newUser('browser')).listPlans()).prices.some(
        (p) => p.plan === 'plus' && p.interval === 'month' && p.currency === 'usd' && p.unitAmount === 900,
      ),
    );
    price.unit_amount = 800;
  });
});
