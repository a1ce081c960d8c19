// Paid plans through the real gateway and processes, as the web app calls them: the public plans, a
// learner's plan, a checkout paid on the Stripe stand-in's page (reached through the gateway, as a browser
// reaches it), the plan the webhooks then grant, the portal, and a forged webhook refused at the edge.

import { sharedTestStack } from '@engram/testkit/shared-stack';
import { signUpThroughGateway, type TestStack } from '@engram/testkit/stack';
import { waitUntil } from '@engram/testkit/wait';
import { beforeAll, describe, expect, it } from 'vitest';
import { trpcClient } from '../support/trpc-client.ts';

let stack: TestStack;

beforeAll(async () => {
  stack = await sharedTestStack();
});

describe('billing through the gateway', () => {
  it('shows every plan to a visitor, labelled as the local stand-in', async () => {
    const plans = await trpcClient(stack.url, '').query('billing.plans');
    expect(plans.standIn).toBe(true);
    expect(plans.prices).toHaveLength(12);
    expect(plans.prices).toContainEqual({ plan: 'plus', interval: 'month', currency: 'usd', unitAmount: 800 });
    expect(plans.limits).toContainEqual({ plan: 'pro', generatedCardsPerPeriod: 10_000 });
  });

  it('turns a checkout paid on the stand-in into the learner plan, and opens the portal', async () => {
    const api = trpcClient(stack.url, await signUpThroughGateway(stack.url, 'buyer'));
    expect(await api.query('billing.customer')).toMatchObject({ plan: 'free', state: '' });

    const { url } = await api.mutate('billing.checkout', { plan: 'pro', interval: 'year', currency: 'brl' });
    expect(url).toMatch(new RegExp(`^${stack.url}/api/dev/stripe/checkout/cs_test_\\w+$`));
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Test stand-in: this page is not Stripe');
    const paid = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: stack.url },
      body: 'action=pay',
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toMatch(
      new RegExp(`^${stack.url}/billing/success\\?session_id=cs_test_\\w+$`),
    );

    const sessionId = /cs_test_\w+/.exec(url)?.[0];
    await waitUntil(
      'the checkout is fulfilled',
      async () => (await api.query('billing.checkoutSession', { sessionId })).fulfilled,
    );
    expect(await api.query('billing.checkoutSession', { sessionId })).toMatchObject({ plan: 'pro', interval: 'year' });
    expect(await api.query('billing.customer')).toMatchObject({
      plan: 'pro',
      state: 'active',
      interval: 'year',
      currency: 'brl',
    });
    const stranger = trpcClient(stack.url, await signUpThroughGateway(stack.url, 'stranger'));
    const hidden = await stranger.query('billing.checkoutSession', { sessionId }).catch((e: unknown) => e);
    expect(hidden).toMatchObject({ message: 'Checkout session not found', data: { code: 'NOT_FOUND' } });
    const again = await api
      .mutate('billing.checkout', { plan: 'plus', interval: 'month', currency: 'brl' })
      .catch((error: { data?: { reason?: string } }) => error);
    expect(again.data?.reason).toBe('ALREADY_SUBSCRIBED_PLAN');
    const portal = await api.mutate('billing.portal', undefined);
    expect(portal.url).toMatch(new RegExp(`^${stack.url}/api/dev/stripe/portal/bps_\\w+$`));
  });

  it('offers the open checkout again to a learner back without paying, and another for another plan', async () => {
    const api = trpcClient(stack.url, await signUpThroughGateway(stack.url, 'hesitant'));
    const first = await api.mutate('billing.checkout', { plan: 'plus', interval: 'month', currency: 'usd' });
    expect(first.url).toMatch(/\/api\/dev\/stripe\/checkout\/cs_test_\w+$/);
    const again = await api.mutate('billing.checkout', { plan: 'plus', interval: 'month', currency: 'usd' });
    expect(again.url).toBe(first.url);
    const pro = await api.mutate('billing.checkout', { plan: 'pro', interval: 'month', currency: 'usd' });
    expect(pro.url).not.toBe(first.url);
    expect(await (await fetch(first.url)).text()).toContain('This checkout has expired');
    expect(await (await fetch(pro.url)).text()).toContain('Subscribe to Engram Pro');
    // Like Stripe's own pages, the stand-in's speak the browser's language.
    const portuguese = await fetch(pro.url, { headers: { 'accept-language': 'pt-BR,pt;q=0.9,en-US;q=0.8' } });
    expect(portuguese.headers.get('content-language')).toBe('pt-BR');
    const page = await portuguese.text();
    expect(page).toContain('Assinar Engram Pro');
    expect(page).toContain('Substituto de teste: esta página não é o Stripe.');
    expect(page).toContain('Cancelar e voltar ao Engram');
  });

  it('refuses a checkout for a plan that does not exist, with the reason in words', async () => {
    const api = trpcClient(stack.url, await signUpThroughGateway(stack.url, 'typo'));
    const error = await api.mutate('billing.checkout', { plan: 'gold', interval: 'year' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ message: 'Plan must be plus or pro.', data: { code: 'BAD_REQUEST' } });
  });

  it('refuses a webhook Stripe did not sign, passed through the gateway untouched', async () => {
    const response = await fetch(`${stack.url}/api/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=forged' },
      body: JSON.stringify({ id: 'evt_forged', type: 'customer.subscription.deleted', data: { object: {} } }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'INVALID_WEBHOOK' });
  });
});
