// A cold dashboard (nothing cached, a signed-in learner) is complete after two waves of requests once the
// app's own code has run: the session together with the page's code, then the page's data (one tRPC batch
// with every load, and identity's invitations and organizations beside it). Nothing the page needs waits
// on another answer after that (issue 25: it took five sequential waves).
import { networkSettled, openTestPage, useBrowserStack } from '@engram/testkit/browser';
import { describe, expect, it } from 'vitest';
import { newUser, signUpAndOnboard } from './support/auth.ts';
import { DASHBOARD_LOADS } from './support/dashboard.ts';

const env = useBrowserStack();

const OFFLINE_UPKEEP = ['settings.get', 'cards.offlineSet', 'cards.syncReviews'];
const OFFLINE_CODE = ['offline-start', 'service-worker', 'workbox-window', 'offline-session'];

interface Timed {
  path: string;
  start: number;
  end: number;
}

/**
 * Each request's wave: the document is wave 0; a request is one wave after the latest-wave request that had
 * finished when it started (what it could have been waiting for).
 */
function waves(document: Timed, requests: Timed[]): Map<number, string[]> {
  const done: { end: number; wave: number }[] = [{ end: document.end, wave: 0 }];
  const byWave = new Map<number, string[]>();
  for (const request of [...requests].sort((a, b) => a.start - b.start)) {
    const before = done.filter((other) => other.end <= request.start).map((other) => other.wave);
    const wave = before.length === 0 ? 1 : Math.max(...before) + 1;
    done.push({ end: request.end, wave });
    byWave.set(wave, [...(byWave.get(wave) ?? []), request.path]);
  }
  return byWave;
}

describe('a cold dashboard', () => {
  it("is complete two waves of requests after the app's code: the session with the page's code, then one batch of its data", async () => {
    const setup = await openTestPage(env.browser, 'dashboard-waves-setup', { locale: 'en-US' });
    await signUpAndOnboard(setup, env.stack.url, newUser('wanda'));
    const storageState = await setup.context().storageState();

    const page = await openTestPage(env.browser, 'dashboard-waves', {
      locale: 'en-US',
      viewport: { width: 1280, height: 800 },
      storageState,
    });
    // Every request takes 200 ms more, as over a phone network: what waits on what shows in the timings.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 200,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await page.goto(`${env.stack.url}/dashboard`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByRole('table', { name: 'Reviews per day by rating' }).waitFor({ state: 'attached' });
    await page.getByText('No cards yet').waitFor();
    await networkSettled(page);

    // The browser's own timings of the page's code and API calls (styles, fonts and images aside). An
    // expression, not a function: these tests compile without DOM types.
    const timings = await page.evaluate<{ document: Timed; resources: Timed[] }>(`(() => {
      const [navigation] = performance.getEntriesByType('navigation');
      const resources = performance
        .getEntriesByType('resource')
        .map((entry) => ({ url: new URL(entry.name), entry }))
        .filter(({ url }) => url.origin === location.origin)
        .filter(({ url }) => url.pathname.endsWith('.js') || url.pathname.startsWith('/api/'))
        .map(({ url, entry }) => ({ path: url.pathname + url.search, start: entry.startTime, end: entry.responseEnd }));
      return { document: { path: '/dashboard', start: 0, end: navigation ? navigation.responseEnd : 0 }, resources };
    })()`);
    // What keeps the app working offline, in the background once the page is shown, is not the page's: the code
    // that remembers the session and registers the service worker (web/src/lib/offline-start.ts), and the device's
    // upkeep (web/src/entities/offline/device.ts: the next days' cards and the settings they are scheduled with).
    const upkeep = (path: string) =>
      OFFLINE_CODE.some((name) => path.startsWith(`/assets/${name}-`)) ||
      (/^\/api\/trpc\/([^?]+)/
        .exec(path)?.[1]
        ?.split(',')
        .every((name) => OFFLINE_UPKEEP.includes(name)) ??
        false);
    const byWave = waves(
      timings.document,
      timings.resources.filter((request) => !upkeep(request.path)),
    );
    const described = [...byWave].map(([wave, paths]) => `${wave}: ${paths.join(' ')}`).join('\n');

    // Wave 1 is the app's code, named by the document; then two more, and no more.
    expect(Math.max(...byWave.keys()), described).toBe(3);
    const first = byWave.get(1) ?? [];
    expect(
      first.every((path) => path.endsWith('.js')),
      described,
    ).toBe(true);
    // The session is asked for together with the dashboard's code.
    const second = byWave.get(2) ?? [];
    expect(
      second.some((path) => path.startsWith('/api/auth/get-session')),
      described,
    ).toBe(true);
    expect(
      second.some((path) => /^\/assets\/dashboard-screen-.*\.js$/.test(path)),
      described,
    ).toBe(true);
    // Then the data: one tRPC request carries every load, identity's two reads go beside it.
    const third = byWave.get(3) ?? [];
    const batches = third.filter((path) => path.startsWith('/api/trpc/'));
    expect(batches, described).toHaveLength(1);
    for (const name of DASHBOARD_LOADS) expect(batches[0]).toContain(name);
    expect(
      third.some((path) => path.startsWith('/api/auth/organization/list-user-invitations')),
      described,
    ).toBe(true);
    expect(
      third.some((path) => path.startsWith('/api/auth/organization/list')),
      described,
    ).toBe(true);
    expect(
      third.filter((path) => path.endsWith('.js')),
      described,
    ).toEqual([]);
  });
});
