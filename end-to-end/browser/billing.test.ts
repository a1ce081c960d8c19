// Buying a plan in a real Chromium through the real gateway and the local Stripe stand-in: the plans page
// (period, currency, the current plan), checkout, the success page that waits for the webhook, the plan
// on the dashboard and the account page, the customer portal, and the pages Checkout returns to.
import { openTestPage, useBrowserStack } from '@engram/testkit/browser';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newUser, signUpAndOnboard } from './support/auth.ts';
import { accessibilityViolations } from './support/axe.ts';

const env = useBrowserStack();

const openPage = (name: string, locale = 'en-US') => openTestPage(env.browser, name, { bypassCSP: true, locale });

/** How long a page may take to show what a webhook changed (Stripe's stand-in delivers them at once). */
const WEBHOOK_EFFECT = { timeout: 20_000, interval: 250 };

const plan = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

/** Picks pro, annual, in reais on the plans page and pays on the stand-in's checkout page. */
async function buyProAnnualInReais(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Plans' }).click();
  await page.waitForURL(`${env.stack.url}/billing/plans`);
  await page.getByText('Test mode: payments go to a local stand-in for Stripe.', { exact: false }).waitFor();
  await expect.poll(() => plan(page, 'Free').getByText('Current plan').count(), WEBHOOK_EFFECT).toBe(1);

  await page.getByText('Annual', { exact: false }).click();
  await page.getByText('BRL', { exact: true }).click();
  await page.waitForURL(`${env.stack.url}/billing/plans?interval=year&currency=brl`);
  expect(await plan(page, 'Pro').getByTestId('price-pro').textContent()).toBe('R$749.00 / year');
  await plan(page, 'Pro').getByText('10,000 AI-generated cards a month').waitFor();

  await plan(page, 'Pro').getByRole('button', { name: 'Upgrade to Pro' }).click();
  await page.waitForURL(/\/api\/dev\/stripe\/checkout\/cs_test_\w+$/);
  await page.getByText('Test stand-in: this page is not Stripe.', { exact: false }).waitFor();
  await page.getByRole('button', { name: /^Pay .*\(test\)$/ }).click();
  await page.waitForURL(/\/billing\/success\?session_id=cs_test_\w+$/);
}

describe('a learner buying a plan', () => {
  it('goes from the plans to the stand-in checkout, waits for the payment, and sees pro on the dashboard', async () => {
    const page = await openPage('billing-buy');
    await signUpAndOnboard(page, env.stack.url, newUser('buyer'));
    expect(await page.getByTestId('current-plan').textContent()).toBe('Free plan');

    await buyProAnnualInReais(page);
    await page.getByRole('heading', { name: 'Welcome to Pro!' }).waitFor();
    await page.getByText('Your Pro plan (annual) is active.', { exact: false }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await page.waitForURL(`${env.stack.url}/dashboard`);
    await expect.poll(() => page.getByTestId('current-plan').textContent(), WEBHOOK_EFFECT).toBe('Pro plan');
    await page
      .getByRole('region', { name: 'Plan' })
      .getByText(/^Renews on /)
      .waitFor();

    await page.goto(`${env.stack.url}/account/settings`);
    await expect.poll(() => page.getByTestId('current-plan').textContent(), WEBHOOK_EFFECT).toBe('Pro plan');
    // The pro plan's generation limit (10,000 a month, docs/product.md#card-generation) with the period's usage.
    await page
      .getByTestId('generation-usage')
      .getByText(/of 10000 generated cards/)
      .waitFor();
  });

  it('manages a paid plan in the portal: cancelling at the period end shows when it ends', async () => {
    const page = await openPage('billing-portal');
    await signUpAndOnboard(page, env.stack.url, newUser('canceller'));
    await buyProAnnualInReais(page);
    await page.getByRole('heading', { name: 'Welcome to Pro!' }).waitFor();

    await page.getByRole('link', { name: 'See the plans' }).click();
    // A subscriber sees the plans in the period and currency they pay in, their own marked.
    await expect.poll(() => plan(page, 'Pro').getByText('Current plan').count(), WEBHOOK_EFFECT).toBe(1);
    expect(await plan(page, 'Pro').getByTestId('price-pro').textContent()).toBe('R$749.00 / year');
    expect(await plan(page, 'Plus').getByRole('button', { name: 'Change plan' }).count()).toBe(1);
    expect(await accessibilityViolations(page)).toEqual([]);

    await plan(page, 'Pro').getByRole('button', { name: 'Manage subscription' }).click();
    await page.waitForURL(/\/api\/dev\/stripe\/portal\/bps_\w+$/);
    await page.getByRole('button', { name: 'Cancel at the end of the period' }).click();
    await page.getByRole('button', { name: 'Resume the subscription' }).waitFor();
    await page.getByRole('link', { name: 'Back to Engram' }).click();
    await page.waitForURL(`${env.stack.url}/billing/plans`);
    // The portal's change reaches billing by webhook; each look reloads the page and waits for the plans.
    await expect
      .poll(async () => {
        await page.reload();
        await plan(page, 'Pro').getByTestId('price-pro').waitFor();
        return plan(page, 'Pro')
          .getByText(/^Ends on /)
          .count();
      }, WEBHOOK_EFFECT)
      .toBe(1);
  });

  it('reads prices in the learner language: reais in Portuguese, offered before any is chosen', async () => {
    const page = await openPage('billing-pt');
    await signUpAndOnboard(page, env.stack.url, newUser('leitora'));
    await page.getByLabel('Language').selectOption('pt-BR');
    await page.goto(`${env.stack.url}/billing/plans`);
    await page.getByRole('heading', { name: 'Planos' }).waitFor();
    expect(await page.getByRole('radio', { name: 'BRL', exact: true }).isChecked()).toBe(true);
    expect(await plan(page, 'Pro').getByTestId('price-pro').textContent()).toBe('R$\u00a074,90 / mês');
    await plan(page, 'Plus').getByRole('button', { name: 'Assinar o Plus' }).waitFor();
  });
});

describe('a learner who left a checkout without paying', () => {
  it('subscribes again: the same checkout for the same plan, a new one for another period, and pays it', async () => {
    const page = await openPage('billing-again');
    await signUpAndOnboard(page, env.stack.url, newUser('hesitant'));
    await page.goto(`${env.stack.url}/billing/plans`);
    await plan(page, 'Plus').getByRole('button', { name: 'Upgrade to Plus' }).click();
    await page.waitForURL(/\/api\/dev\/stripe\/checkout\/cs_test_\w+$/);
    const first = page.url();

    await page.getByRole('link', { name: 'Cancel and go back to Engram' }).click();
    await page.getByRole('heading', { name: 'Checkout cancelled' }).waitFor();
    await page.getByRole('link', { name: 'See the plans' }).click();
    await plan(page, 'Plus').getByRole('button', { name: 'Upgrade to Plus' }).click();
    await page.waitForURL(first);

    await page.goto(`${env.stack.url}/billing/plans?interval=year`);
    await plan(page, 'Plus').getByRole('button', { name: 'Upgrade to Plus' }).click();
    await page.waitForURL((url) => /\/api\/dev\/stripe\/checkout\/cs_test_\w+$/.test(url.href) && url.href !== first);
    await page.getByRole('button', { name: /^Pay .*\(test\)$/ }).click();
    await page.waitForURL(/\/billing\/success\?session_id=cs_test_\w+$/);
    await page.getByRole('heading', { name: 'Welcome to Plus!' }).waitFor();
  });
});

describe('the pages Checkout returns to', () => {
  it('explain a cancelled checkout, a success link without its session, one left unpaid, and one that is not theirs', async () => {
    const page = await openPage('billing-returns');
    await signUpAndOnboard(page, env.stack.url, newUser('returner'));

    await page.goto(`${env.stack.url}/billing/cancel`);
    await page.getByRole('heading', { name: 'Checkout cancelled' }).waitFor();
    await page.getByText('You have not been charged', { exact: false }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.goto(`${env.stack.url}/billing/success`);
    await page.getByRole('heading', { name: 'This link is incomplete' }).waitFor();

    // A checkout of theirs that was opened and left unpaid: nothing charged, nothing to wait for.
    await page.goto(`${env.stack.url}/billing/plans`);
    await plan(page, 'Plus').getByRole('button', { name: 'Upgrade to Plus' }).click();
    await page.waitForURL(/\/api\/dev\/stripe\/checkout\/cs_test_\w+$/);
    const unpaid = /cs_test_\w+/.exec(page.url())?.[0];
    await page.goto(`${env.stack.url}/billing/success?session_id=${unpaid}`);
    await page.getByRole('heading', { name: 'Checkout cancelled' }).waitFor();
    await page.getByText('This checkout has not been paid. Nothing was charged.').waitFor();

    await page.goto(`${env.stack.url}/billing/success?session_id=cs_test_notyours`);
    await page.getByRole('heading', { name: 'We could not find this checkout.' }).waitFor();
    await page.getByRole('alert').getByText('Checkout session not found').waitFor();
  });
});
