// A learner's first visit, in a real Chromium through the real gateway and every service.
import { openTestPage, useBrowserStack } from '@engram/testkit/browser';
import { describe, expect, it } from 'vitest';
import { newUser, signUp } from './support/auth.ts';

const env = useBrowserStack();

describe('a new learner', () => {
  it('signs up with the emailed link, onboards, adds a card, keeps it across a reload, signs out and is sent to sign-in', async () => {
    const page = await openTestPage(env.browser, 'learner-journey');
    const user = { ...newUser('learner'), name: 'Ada Learner' };

    // The verification link signs the new user in; not yet onboarded, they land on /onboarding, and are
    // sent there from every protected page, the dashboard too.
    await signUp(page, env.stack.url, user);
    await page.goto(`${env.stack.url}/dashboard`);
    await page.waitForURL(`${env.stack.url}/onboarding`);
    await page.getByRole('button', { name: 'Start learning' }).click();
    await page.waitForURL(`${env.stack.url}/dashboard`);
    await page.getByText('Ada Learner').first().waitFor();
    // Onboarded, the user is never sent back there.
    await page.goto(`${env.stack.url}/onboarding`);
    await page.waitForURL(`${env.stack.url}/dashboard`);

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

    await page.goto(`${env.stack.url}/dashboard`);
    await page.waitForURL(/\/auth\/sign-in\?redirectTo=/);
    expect(new URL(page.url()).searchParams.get('redirectTo')).toBe('/dashboard');
  });
});
