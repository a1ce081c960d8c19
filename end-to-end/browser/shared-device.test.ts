// A shared device after a learner leaves (issue 41), in Chromium through the real gateway: once they sign out, or
// their session is found ended while online, the next person at the device finds none of their card texts or
// pictures — not in the service worker's caches, not in IndexedDB, not in the browser's HTTP cache — and reviews
// they made offline and had not synced are sent before the device forgets them, or, if they cannot be, kept apart
// for that learner and sent first when they sign in again.
import { randomBytes } from 'node:crypto';
import { openTestPage, useBrowserStack } from '@engram/testkit/browser';
import { signUpThroughGateway, TEST_PASSWORD } from '@engram/testkit/stack';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { trpcClient } from '../support/trpc-client.ts';
import { fillSignIn, useSessionCookie } from './support/auth.ts';
import { addCardFile, picture } from './support/card-files.ts';
import { cardsMadeEarlier, reviewLogsOf, userIdOf } from './support/database.ts';
import { inHttpCache, queuedOf, whereKept } from './support/device-contents.ts';
import { goOffline, seeServiceWorkerRequests, underServiceWorker } from './support/offline.ts';

seeServiceWorkerRequests();
const env = useBrowserStack();

/** A learner with three cards due, the first showing a picture; each card's text is theirs alone. */
async function learner(label: string) {
  const { url } = env.stack;
  const suffix = randomBytes(4).toString('hex');
  const email = `${label}-${suffix}@example.com`;
  const cookie = await signUpThroughGateway(url, `${label} Learner`, email);
  const userId = await userIdOf(env.stack, email);
  const api = trpcClient(url, cookie);
  await api.mutate('settings.completeOnboarding', { timezone: 'Europe/Lisbon' });
  const file = await addCardFile(url, cookie, `diagnosis-${suffix}.png`, 'image/png', await picture());
  const texts = [`Private question ${suffix} one`, `Private question ${suffix} two`, `Private answer ${suffix}`];
  await api.mutate('cards.createMany', {
    cards: [
      { front: `${texts[0]}\n\n![scan](${file})`, back: texts[2] },
      { front: texts[1], back: 'Two' },
      { front: `Private question ${suffix} three`, back: 'Three' },
    ],
  });
  await cardsMadeEarlier(env.stack, userId, 1);
  // What must not stay: the cards' texts, and the picture (its bytes' address and name).
  return { cookie, userId, email, file, secrets: [...texts, file, `diagnosis-${suffix}`] };
}

/** Where a device ready to practise offline keeps a learner's cards and pictures. */
const OFFLINE_PLACES = ['cache engram-media:', 'IndexedDB engram-offline-'];

type Learner = Awaited<ReturnType<typeof learner>>;

/** `who`'s device, ready to practise offline: the cards kept in IndexedDB and the picture in the caches. */
async function readyDevice(name: string, who: Learner): Promise<Page> {
  const page = await openTestPage(env.browser, name, { serviceWorkers: 'allow', locale: 'en-US' });
  await useSessionCookie(page, env.stack.url, who.cookie);
  await page.goto(`${env.stack.url}/dashboard`);
  await underServiceWorker(page);
  // Before the sign-out, the device does hold them (else the checks after it would prove nothing). The HTTP cache is
  // not asked here: asking it bypasses the service worker for a moment, and the device's own fetch of the picture
  // would then not be kept.
  const places = async () => {
    const kept = await whereKept(page, who.secrets);
    return OFFLINE_PLACES.filter((place) => kept.some((line) => line.startsWith(place)));
  };
  await expect.poll(places).toEqual(OFFLINE_PLACES);
  return page;
}

/** Two reviews done offline, then the network back but every sync of them refused on the way (aborted). */
async function twoReviewsWaiting(page: Page) {
  await goOffline(page.context());
  await page.goto(`${env.stack.url}/practice/session`);
  for (const key of ['3', '4']) {
    await page.getByRole('region', { name: 'Question' }).waitFor();
    await page.keyboard.press('Space');
    await page.getByRole('region', { name: 'Answer' }).waitFor();
    await page.keyboard.press(key);
  }
  await page.getByText('Reviews waiting to sync: 2.', { exact: false }).waitFor();
  await page.route(
    (url) => url.pathname.includes('cards.syncReviews'),
    (route) => route.abort('connectionrefused'),
  );
  await page.context().unrouteAll();
  await page.context().setOffline(false);
}

describe('a shared device after the learner leaves', () => {
  it('keeps none of their card texts or pictures once they sign out: not in the caches, IndexedDB or the HTTP cache', async () => {
    const ana = await learner('ana');
    const page = await readyDevice('shared-device-sign-out', ana);
    // The app's own script, kept in the HTTP cache for a year: gone with the cache at sign-out.
    const script = (await page.locator('script[type="module"]').first().getAttribute('src')) ?? '';
    const scriptUrl = new URL(script, env.stack.url).href;
    expect(await inHttpCache(page, [scriptUrl])).toEqual([scriptUrl]);
    const signOut = page.waitForResponse((response) => response.url().endsWith('/api/auth/sign-out'));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/auth\/sign-in$/);
    await expect.poll(() => whereKept(page, ana.secrets, [`${env.stack.url}${ana.file}`])).toEqual([]);
    // The sign-out's answer told the browser to empty its HTTP cache of this site (and to leave its storage).
    expect((await (await signOut).allHeaders())['clear-site-data']).toBe('"cache"');
    expect(await inHttpCache(page, [scriptUrl])).toEqual([]);
    // The app itself stays installed: it still opens without the network.
    await goOffline(page.context());
    await page.reload();
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
  });

  it('forgets them when their session is found ended on opening the app (signed out elsewhere)', async () => {
    const bea = await learner('bea');
    const page = await readyDevice('shared-device-ended', bea);
    // Signed out on another device with the same session (or revoked there): this device is not told.
    const ended = await fetch(`${env.stack.url}/api/auth/sign-out`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: env.stack.url, cookie: bea.cookie },
      body: '{}',
    });
    expect(ended.status).toBe(200);
    await page.goto(`${env.stack.url}/dashboard`);
    await page.waitForURL(/\/auth\/sign-in/);
    await expect.poll(() => whereKept(page, bea.secrets, [`${env.stack.url}${bea.file}`])).toEqual([]);
  });

  it('sends the reviews not yet synced before signing out when the server answers, then forgets the cards', async () => {
    const caio = await learner('caio');
    const page = await readyDevice('shared-device-sent-first', caio);
    await twoReviewsWaiting(page);
    // The server answers again by the time they sign out.
    await page.unrouteAll();
    await page.goto(`${env.stack.url}/auth/sign-out`);
    await page.waitForURL(/\/auth\/sign-in$/);
    expect(await page.getByRole('heading', { name: 'Reviews not synced yet' }).count()).toBe(0);
    expect((await reviewLogsOf(env.stack, caio.userId)).length).toBe(2);
    await expect.poll(() => whereKept(page, caio.secrets)).toEqual([]);
    expect(await queuedOf(page, caio.userId)).toBe(0);
  });

  it('keeps reviews that cannot be sent apart, without the cards, and sends them first when the same learner signs in again', async () => {
    const dora = await learner('dora');
    const page = await readyDevice('shared-device-kept-apart', dora);
    await twoReviewsWaiting(page);
    await page.goto(`${env.stack.url}/auth/sign-out`);
    await page.getByText('Reviews done on this device and not yet sent: 2.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Sign out anyway' }).click();
    await page.waitForURL(/\/auth\/sign-in$/);
    // The next person finds her two reviews in her own queue, and none of her cards.
    await expect.poll(() => whereKept(page, dora.secrets)).toEqual([]);
    expect(await queuedOf(page, dora.userId)).toBe(2);

    // She signs in again: her reviews go before the device asks for her cards.
    await page.unrouteAll();
    const asked: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.includes('cards.syncReviews')) asked.push('syncReviews');
      if (path.includes('cards.offlineSet')) asked.push('offlineSet');
    });
    await fillSignIn(page, dora.email, TEST_PASSWORD);
    await page.waitForURL(`${env.stack.url}/dashboard`);
    await expect.poll(async () => (await reviewLogsOf(env.stack, dora.userId)).length).toBe(2);
    await expect.poll(() => asked.includes('offlineSet')).toBe(true);
    expect(asked[0]).toBe('syncReviews');
    expect(await queuedOf(page, dora.userId)).toBe(0);
  });
});
