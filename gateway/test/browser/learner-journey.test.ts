import { mkdirSync } from 'node:fs';
// A learner's first visit, in a real Chromium through the real gateway and every service.
import { launchBrowser } from '@engram/testkit/browser';
import { startTestStack, type TestStack } from '@engram/testkit/stack';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';

const ARTIFACTS = new URL('../../../.cache/test-artifacts', import.meta.url).pathname;

let stack: TestStack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startTestStack(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('a new learner', () => {
  it('signs up, onboards, adds a card, keeps it across a reload, signs out and is sent to sign-in', async () => {
    const page = await browser.newPage();
    onTestFailed(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: `${ARTIFACTS}/learner-journey.png`, fullPage: true });
    });
    const email = `learner-${Date.now()}@example.com`;

    await page.goto(`${stack.url}/auth/sign-up`);
    await page.getByLabel('Name').fill('Ada Learner');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();

    // A user who has not onboarded is sent to /onboarding from every protected page, the dashboard too.
    await page.waitForURL(`${stack.url}/onboarding`);
    await page.goto(`${stack.url}/dashboard`);
    await page.waitForURL(`${stack.url}/onboarding`);
    await page.getByRole('button', { name: 'Start learning' }).click();
    await page.waitForURL(`${stack.url}/dashboard`);
    await page.getByText('Ada Learner').first().waitFor();
    // Onboarded, the user is never sent back there.
    await page.goto(`${stack.url}/onboarding`);
    await page.waitForURL(`${stack.url}/dashboard`);

    await page.getByLabel('Front').fill('What does FSRS schedule?');
    await page.getByLabel('Back').fill('Each review just before it would be forgotten');
    await page.getByRole('button', { name: 'Add card' }).click();
    const cards = page.getByRole('list', { name: 'Your cards' });
    await cards.getByText('What does FSRS schedule?').waitFor();

    await page.reload();
    await cards.getByText('What does FSRS schedule?').waitFor();
    await cards.getByText('Each review just before it would be forgotten').waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/auth\/sign-in/);

    await page.goto(`${stack.url}/dashboard`);
    await page.waitForURL(/\/auth\/sign-in\?redirectTo=/);
    expect(new URL(page.url()).searchParams.get('redirectTo')).toBe('/dashboard');
  });
});
