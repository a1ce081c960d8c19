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
  /** The page's task that asked for it, when the page's own script did (see TASKS). */
  task?: number;
}

/**
 * Numbers the page's tasks as its script asks for code and data: a `<link>` added (Vite preloads a chunk's
 * files so) and a `fetch` call record their address with the task they were made in. One task's requests are
 * made before it gives the browser back, so none of them can wait on an answer that came in meanwhile, however
 * long the task was held up: on a loaded machine the browser's timings alone showed a request of the route's
 * code a wave late, because the banner's chunk had come in while its task was paused between two preloads.
 * A task ends at its microtask checkpoint, so this can only split a task, never join two.
 */
const TASKS = `(() => {
  let task = 0;
  let open = false;
  window.__requestTasks = [];
  const record = (url) => {
    if (!open) {
      open = true;
      task += 1;
      queueMicrotask(() => { open = false; });
    }
    window.__requestTasks.push({ url: new URL(url, location.href).href, task, at: performance.now() });
  };
  const appendChild = Node.prototype.appendChild;
  Node.prototype.appendChild = function (child) {
    if (child instanceof HTMLLinkElement && child.href) record(child.href);
    return appendChild.call(this, child);
  };
  const fetch = window.fetch;
  window.fetch = function (input, init) {
    record(input instanceof Request ? input.url : String(input));
    return fetch.call(this, input, init);
  };
})()`;

/**
 * Each request's wave: the document is wave 0; the requests of one task of the page share a wave, one after the
 * latest-wave request that had finished when the task's first request started (what the task could have been
 * waiting for). A request the page's script did not make itself (a module's static import) is a task of its own.
 */
function waves(document: Timed, requests: Timed[]): Map<number, string[]> {
  const done: { end: number; wave: number }[] = [{ end: document.end, wave: 0 }];
  const taskWave = new Map<number, number>();
  const byWave = new Map<number, string[]>();
  for (const request of [...requests].sort((a, b) => a.start - b.start)) {
    let wave = request.task === undefined ? undefined : taskWave.get(request.task);
    if (wave === undefined) {
      const before = done.filter((other) => other.end <= request.start).map((other) => other.wave);
      wave = before.length === 0 ? 1 : Math.max(...before) + 1;
      if (request.task !== undefined) taskWave.set(request.task, wave);
    }
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
    // Every request takes 600 ms more, as over a slow phone network: what waits on what shows in the timings. (At
    // 200 ms a loaded machine once held the page's script up longer than a whole request: the session, asked for
    // at start, had come back before the guard asked for the page's code, which then counted a wave late.)
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 600,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await page.addInitScript(TASKS);
    await page.goto(`${env.stack.url}/dashboard`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByRole('table', { name: 'Reviews per day by rating' }).waitFor({ state: 'attached' });
    await page.getByText('No cards yet').waitFor();
    await networkSettled(page);

    // The browser's own timings of the page's code and API calls (styles, fonts and images aside). An
    // expression, not a function: these tests compile without DOM types.
    const timings = await page.evaluate<{ document: Timed; resources: Timed[] }>(`(() => {
      const [navigation] = performance.getEntriesByType('navigation');
      const tasks = [...window.__requestTasks];
      // The latest ask for that address made before the request started (a preload of a file already loaded
      // fetches nothing, so it names no request).
      const taskOf = (entry) => {
        const asks = tasks.filter((made) => made.url === entry.name && made.at <= entry.startTime);
        const ask = asks[asks.length - 1];
        if (!ask) return undefined;
        tasks.splice(tasks.indexOf(ask), 1);
        return ask.task;
      };
      const resources = performance
        .getEntriesByType('resource')
        .map((entry) => ({ url: new URL(entry.name), entry }))
        .filter(({ url }) => url.origin === location.origin)
        .filter(({ url }) => url.pathname.endsWith('.js') || url.pathname.startsWith('/api/'))
        .map(({ url, entry }) => ({
          path: url.pathname + url.search,
          start: entry.startTime,
          end: entry.responseEnd,
          task: taskOf(entry),
        }));
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
