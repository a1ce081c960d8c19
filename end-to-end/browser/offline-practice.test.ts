// Practising with no network (issue 29), in Chromium through the real gateway: the device keeps the next days'
// cards with their pictures and sounds; cut off, the installed app opens, practises 50 ratings across the learner's
// local midnight (in a timezone where it has just passed), scheduling each on the device; back online the queue
// syncs in a request or two, and the server has exactly those 50 reviews, once each, at the times they were done,
// counted on the right days; sending the same queue again changes nothing.
import { randomBytes } from 'node:crypto';
import { addDays, studyDayOf, studyDayStart } from '@engram/contracts/study-day';
import { openTestPage, useBrowserStack } from '@engram/testkit/browser';
import { silentWav } from '@engram/testkit/media-files';
import { signUpThroughGateway, TEST_PASSWORD } from '@engram/testkit/stack';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { trpcClient } from '../support/trpc-client.ts';
import { fillSignIn, useSessionCookie } from './support/auth.ts';
import { addCardFile, picture } from './support/card-files.ts';
import { cardsMadeEarlier, reviewItemsDueIn, reviewLogsOf, userIdOf } from './support/database.ts';
import { queuedOf, whereKept } from './support/device-contents.ts';
import { goOffline, goOnline, seeServiceWorkerRequests, underServiceWorker } from './support/offline.ts';

seeServiceWorkerRequests();
const env = useBrowserStack();

/** A zone without daylight saving time for each whole UTC offset a learner may be at. */
const ZONES: Record<number, string> = {
  [-9]: 'Pacific/Gambier',
  [-8]: 'Pacific/Pitcairn',
  [-7]: 'America/Phoenix',
  [-6]: 'America/Regina',
  [-5]: 'America/Bogota',
  [-4]: 'America/La_Paz',
  [-3]: 'America/Sao_Paulo',
  [-2]: 'America/Noronha',
  [-1]: 'Atlantic/Cape_Verde',
  1: 'Africa/Lagos',
  2: 'Africa/Johannesburg',
  3: 'Europe/Istanbul',
  4: 'Asia/Dubai',
  5: 'Asia/Tashkent',
  6: 'Asia/Dhaka',
  7: 'Asia/Bangkok',
  8: 'Asia/Singapore',
  9: 'Asia/Tokyo',
  10: 'Australia/Brisbane',
  11: 'Pacific/Guadalcanal',
  12: 'Pacific/Tarawa',
  13: 'Pacific/Fakaofo',
  14: 'Pacific/Kiritimati',
};

/** Somewhere (not UTC) where it is now between 1 and 3 in the morning: its last midnight, under three hours ago. */
function justPastMidnight(now = new Date()) {
  let offset = (((1 - now.getUTCHours()) % 24) + 24) % 24;
  if (offset > 14) offset -= 24;
  if (offset === 0) offset = 1;
  const zone = ZONES[offset]!;
  const midnight = studyDayStart(studyDayOf(now, zone, 0), zone, 0);
  return { zone, midnight };
}

const MINUTE = 60_000;
/** Ratings given offline, 80 s apart on the device's clock: from 35 minutes before midnight to 32 after. */
const RATED = 50;
const RATINGS = ['3', '3', '4', '3', '1', '3', '2', '3', '4', '3'] as const;

/** How many items the device keeps for `userId` (0 before it has a set). */
const keptItems = (page: Page, userId: string) =>
  page.evaluate(`(async () => {
    if (!(await indexedDB.databases()).some((db) => db.name === 'engram-offline-${userId}')) return 0;
    const db = await new Promise((resolve) => { const open = indexedDB.open('engram-offline-${userId}'); open.onsuccess = () => resolve(open.result); });
    const state = await new Promise((resolve) => { const read = db.transaction('state').objectStore('state').get('device'); read.onsuccess = () => resolve(read.result); });
    db.close();
    return state ? state.set.items.length : 0;
  })()`);

/** Said under the dashboard's figures offline: the device worked them out. */
const COUNTED_HERE = 'With the reviews done on this device, as they will count once synced.';

/** The dashboard's progress and streak panels as the learner reads them (without the offline caption). */
async function dashboardFigures(page: Page) {
  const read = async (name: string) =>
    ((await page.getByRole('region', { name }).textContent()) ?? '').replace(COUNTED_HERE, '');
  return { progress: await read('Progress'), streak: await read('Streak') };
}

const keptFiles = (page: Page) =>
  page.evaluate(`caches.open('engram-media').then((cache) => cache.keys()).then((keys) => keys.length)`);

describe('practising with no network', () => {
  it('practises 50 ratings offline across local midnight (a picture and a sound among the cards), then syncs each review once, at its time, in a request or two', async () => {
    const { url } = env.stack;
    const { zone, midnight } = justPastMidnight();
    const email = `offline-${randomBytes(4).toString('hex')}@example.com`;
    const cookie = await signUpThroughGateway(url, 'Olga Offline', email);
    const userId = await userIdOf(env.stack, email);
    const api = trpcClient(url, cookie);
    await api.mutate('settings.completeOnboarding', { timezone: zone, dayStartHour: 0 });
    await api.mutate('settings.updatePreset', { newPerDay: 100 });
    const image = await addCardFile(url, cookie, 'swatch.png', 'image/png', await picture());
    const sound = await addCardFile(url, cookie, 'hello.wav', 'audio/wav', silentWav());
    // The picture and the sound first (made first, so due first).
    await api.mutate('cards.createMany', {
      cards: [
        { front: `What colour is this?\n\n![swatch](${image})`, back: 'Green' },
        { front: 'Which word do you hear?', back: `Hello\n\n![Sound: hello](${sound})` },
      ],
    });
    await api.mutate('cards.createMany', {
      cards: Array.from({ length: 38 }, (_, n) => ({ front: `Question ${n + 1}`, back: `Answer ${n + 1}` })),
    });
    // Made a while before the practice below (the device's clock is up to three hours behind), so all are due by then.
    await cardsMadeEarlier(env.stack, userId, 6);

    // The device's clock: 35 minutes before the learner's midnight, when practice starts.
    const start = midnight.getTime() - 35 * MINUTE;
    const page = await openTestPage(env.browser, 'offline-practice', {
      serviceWorkers: 'allow',
      locale: 'en-US',
      timezoneId: zone,
    });
    await page.clock.install({ time: start });
    // The main thread's long tasks (over 50 ms), as Chromium reports them.
    await page.addInitScript(`window.longTasks = [];
      new PerformanceObserver((list) => { for (const task of list.getEntries()) window.longTasks.push(task.duration); })
        .observe({ type: 'longtask', buffered: true });`);
    await useSessionCookie(page, url, cookie);
    await page.goto(`${url}/dashboard`);
    await underServiceWorker(page);
    // The dashboard keeps the device ready: the next days' cards, and their picture and sound.
    await expect.poll(() => keptItems(page, userId)).toBe(40);
    await expect.poll(() => keptFiles(page)).toBe(2);
    const syncs: { url: string; body: string; headers: Record<string, string> }[] = [];
    page.on('request', (request) => {
      if (request.url().includes('cards.syncReviews'))
        syncs.push({ url: request.url(), body: request.postData() ?? '', headers: request.headers() });
    });

    await goOffline(page.context());
    await page.goto(`${url}/practice/session`);
    await page.getByText('You are offline: practice goes on with the cards kept on this device.').waitFor();
    const question = page.getByRole('region', { name: 'Question' });
    const answer = page.getByRole('region', { name: 'Answer' });
    let sawPicture = false;
    let heardSound = false;
    const longTasksBefore = (await page.evaluate('window.longTasks.length')) as number;
    for (let n = 0; n < RATED; n += 1) {
      await page.clock.fastForward(80_000);
      await question.waitFor();
      if (((await question.textContent()) ?? '').includes('What colour is this?')) {
        await expect
          .poll(() => question.locator('img').evaluate((img: { naturalWidth: number }) => img.naturalWidth))
          .toBe(40);
        sawPicture = true;
      }
      await page.keyboard.press('Space');
      await answer.waitFor();
      if (((await answer.textContent()) ?? '').includes('Hello')) {
        await expect
          .poll(() => answer.locator('audio').evaluate((audio: { readyState: number }) => audio.readyState))
          .toBeGreaterThan(0);
        heardSound = true;
      }
      await page.keyboard.press(RATINGS[n % RATINGS.length]!);
    }
    expect([sawPicture, heardSound]).toEqual([true, true]);
    const longTasks = ((await page.evaluate('window.longTasks')) as number[]).slice(longTasksBefore);
    console.log(
      `main-thread long tasks during ${RATED} offline ratings: ${longTasks.length}` +
        (longTasks.length ? ` (longest ${Math.max(...longTasks).toFixed(0)} ms)` : ''),
    );
    await page.getByText(`Reviews waiting to sync: ${RATED}.`).waitFor();
    expect(syncs).toEqual([]);
    const practisedUntil = await page.evaluate(() => Date.now());

    // The dashboard, still offline: today's reviews, the cards by state, what is left for today and the streak with
    // the reviews done here — as the server counts them once they sync (compared below).
    await page.goto(`${url}/dashboard`);
    await page.getByText(COUNTED_HERE).first().waitFor();
    const offlineFigures = await dashboardFigures(page);
    expect(await page.getByTestId('streak-current').textContent()).toBe('2');
    expect(await page.getByText('Your charts are shown again once you are back online.').count()).toBe(1);
    expect(
      await page.getByText('Adding, editing and searching your cards needs the network', { exact: false }).count(),
    ).toBe(1);

    await goOnline(page);
    await expect.poll(async () => (await reviewLogsOf(env.stack, userId)).length).toBe(RATED);
    await expect.poll(() => page.getByText('Reviews waiting to sync').count()).toBe(0);
    console.log(`${RATED} offline reviews synced in ${syncs.length} request(s)`);
    expect(syncs.length).toBeLessThanOrEqual(2);

    // Each at the time it was done on the device, half before the learner's midnight and half after.
    const logs = await reviewLogsOf(env.stack, userId);
    expect(new Set(logs.map((log) => log.id)).size).toBe(RATED);
    for (const log of logs) {
      expect(log.reviewed_at.getTime()).toBeGreaterThan(start);
      expect(log.reviewed_at.getTime()).toBeLessThanOrEqual(practisedUntil);
    }
    const before = logs.filter((log) => log.reviewed_at < midnight).length;
    expect(before).toBeGreaterThan(10);
    expect(before).toBeLessThan(RATED - 10);
    const today = studyDayOf(new Date(), zone, 0);
    expect(studyDayOf(midnight, zone, 0)).toBe(today);
    expect(studyDayOf(new Date(midnight.getTime() - MINUTE), zone, 0)).toBe(addDays(today, -1));
    // Today's count and the streak (yesterday and today) as the dashboard shows them.
    const [progress, streak] = await Promise.all([api.query('cards.progressMetrics'), api.query('cards.streak')]);
    expect(progress).toMatchObject({ reviewedToday: RATED - before });
    expect(streak).toMatchObject({ current: 2, reviewedToday: true });
    // The dashboard online says what it said offline.
    await page.goto(`${url}/dashboard`);
    await page.getByTestId('streak-current').waitFor();
    await page.getByTestId('due-today').waitFor();
    expect(await page.getByText(COUNTED_HERE).count()).toBe(0);
    expect(await dashboardFigures(page)).toEqual(offlineFigures);

    // The same queue sent again (a sync retried after its answer was lost) changes nothing.
    const [sent] = syncs;
    const resent = await page.evaluate(
      async ({ to, body, type }) =>
        (await fetch(to, { method: 'POST', headers: { 'content-type': type }, body })).text(),
      { to: sent!.url, body: sent!.body, type: sent!.headers['content-type'] ?? 'application/json' },
    );
    const statuses = new Set(resent.match(/"status":"\w+"/g));
    expect([...statuses]).toEqual(['"status":"duplicate"']);
    expect(await reviewLogsOf(env.stack, userId)).toEqual(logs);
  });
});

/** A learner made through the API with `count` new cards, due an hour ago. */
async function learner(label: string, count: number) {
  const { url } = env.stack;
  const email = `${label}-${randomBytes(4).toString('hex')}@example.com`;
  const cookie = await signUpThroughGateway(url, `${label} Learner`, email);
  const userId = await userIdOf(env.stack, email);
  const api = trpcClient(url, cookie);
  await api.mutate('settings.completeOnboarding', { timezone: 'Europe/Lisbon' });
  await api.mutate('cards.createMany', {
    cards: Array.from({ length: count }, (_, n) => ({ front: `${label} question ${n + 1}`, back: `Answer ${n + 1}` })),
  });
  await cardsMadeEarlier(env.stack, userId, 1);
  return { cookie, userId, api, email };
}

/**
 * Two reviews done offline on `page`'s device, then the network back but the server not taking their sync yet (it
 * is unreachable for it): they wait on the device while the learner is online.
 */
async function twoReviewsWaitingOnline(page: Page) {
  await goOffline(page.context());
  await page.goto(`${env.stack.url}/practice/session`);
  await rate(page, '3');
  await rate(page, '4');
  // Both are on the device's queue before the network comes back (a review still on its way then would go
  // straight to the server).
  await page.getByText('Reviews waiting to sync: 2.', { exact: false }).waitFor();
  // (A batch of calls names them all in its path: cards.syncReviews may come with others.)
  await page.route(
    (url) => url.pathname.includes('cards.syncReviews'),
    (route) => route.abort('connectionrefused'),
  );
  await page.context().unrouteAll();
  await page.context().setOffline(false);
}

/** A device of the learner with `cookie`, its clock at `time`, ready to practise offline. */
async function device(name: string, cookie: string, userId: string, time?: number) {
  const page = await openTestPage(env.browser, name, { serviceWorkers: 'allow', locale: 'en-US' });
  if (time) await page.clock.install({ time });
  await useSessionCookie(page, env.stack.url, cookie);
  await page.goto(`${env.stack.url}/dashboard`);
  await underServiceWorker(page);
  await expect.poll(() => keptItems(page, userId)).toBeGreaterThan(0);
  return page;
}

/** Rates the card shown with `key` (1–4); returns its question. */
async function rate(page: Page, key: string) {
  const question = page.getByRole('region', { name: 'Question' });
  await question.waitFor();
  const asked = (await question.textContent()) ?? '';
  await page.keyboard.press('Space');
  await page.getByRole('region', { name: 'Answer' }).waitFor();
  await page.keyboard.press(key);
  return asked;
}

describe('more than one device, and more than one account', () => {
  it('counts the same card reviewed offline on two devices twice, in the order they were done, whichever syncs first', async () => {
    const { cookie, userId } = await learner('twodevices', 3);
    const phone = await device('two-devices-phone', cookie, userId, Date.now() - 20 * MINUTE);
    const laptop = await device('two-devices-laptop', cookie, userId, Date.now() - 10 * MINUTE);
    for (const page of [phone, laptop]) {
      await goOffline(page.context());
      await page.goto(`${env.stack.url}/practice/session`);
    }
    // Both rate the same first card: the phone first, the laptop ten minutes later.
    const first = await rate(phone, '3');
    expect(await rate(laptop, '3')).toBe(first);
    for (const page of [phone, laptop]) await page.getByText('Reviews waiting to sync: 1.', { exact: false }).waitFor();
    // The laptop syncs first; the phone's earlier review arrives after it and is placed before it.
    await goOnline(laptop);
    await expect.poll(async () => (await reviewLogsOf(env.stack, userId)).length).toBe(1);
    await goOnline(phone);
    await expect.poll(async () => (await reviewLogsOf(env.stack, userId)).length).toBe(2);
    const [earlier, later] = await reviewLogsOf(env.stack, userId);
    expect(later!.reviewed_at.getTime() - earlier!.reviewed_at.getTime()).toBeGreaterThan(9 * MINUTE);
  });

  it('warns before signing out with reviews not synced, keeps them for their own account, and syncs them when it signs in again', async () => {
    const ana = await learner('ana', 2);
    const bruno = await learner('bruno', 1);
    const page = await device('unsynced-sign-out', ana.cookie, ana.userId);
    await twoReviewsWaitingOnline(page);
    await page.goto(`${env.stack.url}/auth/sign-out`);
    await page.getByRole('heading', { name: 'Reviews not synced yet' }).waitFor();
    await page.getByText('Reviews done on this device and not yet sent: 2.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Sign out anyway' }).click();
    await page.waitForURL(/\/auth\/sign-in$/);

    // Bruno signs in on the same device: Ana's reviews are never sent with his session.
    await useSessionCookie(page, env.stack.url, bruno.cookie);
    await page.unrouteAll();
    const sentAsBruno: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('cards.syncReviews')) sentAsBruno.push(request.postData() ?? '');
    });
    await page.goto(`${env.stack.url}/dashboard`);
    await expect.poll(() => keptItems(page, bruno.userId)).toBe(1);
    expect(sentAsBruno).toEqual([]);
    expect(await reviewLogsOf(env.stack, ana.userId)).toEqual([]);
    expect(await reviewLogsOf(env.stack, bruno.userId)).toEqual([]);

    // Ana signs in again (her session ended when she signed out): her two reviews sync.
    await page.context().clearCookies();
    await page.goto(`${env.stack.url}/auth/sign-in`);
    await fillSignIn(page, ana.email, TEST_PASSWORD);
    await page.waitForURL(`${env.stack.url}/dashboard`);
    await expect.poll(async () => (await reviewLogsOf(env.stack, ana.userId)).length).toBe(2);
  });

  it('asks before switching to another account of the device with reviews not synced, and never sends them as it', async () => {
    const ana = await learner('carla', 2);
    const bruno = await learner('davi', 1);
    // Davi is signed in on the device; Carla adds her account and practises with it.
    const page = await device('unsynced-switch', bruno.cookie, bruno.userId);
    await page.goto(`${env.stack.url}/account/settings`);
    await page.getByRole('button', { name: 'Add account' }).click();
    await page.waitForURL(/\/auth\/sign-in\?addAccount=1/);
    await fillSignIn(page, ana.email, TEST_PASSWORD);
    await page.waitForURL(`${env.stack.url}/dashboard`);
    await expect.poll(() => keptItems(page, ana.userId)).toBe(2);
    await twoReviewsWaitingOnline(page);

    const switchTo = async (email: string) => {
      await page.getByRole('button', { name: `Account actions: ${email}` }).click();
      await page.getByRole('menuitem', { name: 'Switch account' }).click();
    };
    const current = () => page.getByTestId('current-user').textContent();
    await page.goto(`${env.stack.url}/account/settings`);
    await switchTo(bruno.email);
    const warning = page.getByRole('dialog', { name: 'Reviews not synced yet' });
    await warning
      .getByText('Reviews done on this device with this account and not yet sent: 2.', { exact: false })
      .waitFor();
    // Staying keeps Carla's account in use.
    await warning.getByRole('button', { name: 'Cancel' }).click();
    await warning.waitFor({ state: 'hidden' });
    expect(await current()).toContain(ana.email);

    await switchTo(bruno.email);
    await warning.getByRole('button', { name: 'Switch anyway' }).click();
    await expect.poll(current).toContain(bruno.email);
    // As Davi the device takes his cards, and sends none of Carla's reviews (sent as him, they would come back as
    // conflicts and be dropped: her reviews syncing at the end says they were not).
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('cards.syncReviews')) sent.push(request.postData() ?? '');
    });
    await page.unrouteAll();
    await page.goto(`${env.stack.url}/dashboard`);
    await expect.poll(() => keptItems(page, bruno.userId)).toBe(1);
    expect(sent).toEqual([]);
    expect(await reviewLogsOf(env.stack, ana.userId)).toEqual([]);
    expect(await reviewLogsOf(env.stack, bruno.userId)).toEqual([]);
    // Davi finds none of Carla's cards on the device, only her two reviews kept apart in her own queue.
    await expect.poll(() => whereKept(page, ['carla question'])).toEqual([]);
    expect(await queuedOf(page, ana.userId)).toBe(2);

    // Switched back to Carla, with nothing waiting for Davi: at once; her two reviews sync once she opens her
    // dashboard (where the device starts).
    await page.goto(`${env.stack.url}/account/settings`);
    await switchTo(ana.email);
    await expect.poll(current).toContain(ana.email);
    await page.goto(`${env.stack.url}/dashboard`);
    await expect.poll(async () => (await reviewLogsOf(env.stack, ana.userId)).length).toBe(2);
  });

  it('keeps as many days of cards as the learner chooses for this device', async () => {
    const { cookie, userId } = await learner('horizon', 3);
    // Three review cards, due in 2, 6 and 12 days.
    await reviewItemsDueIn(env.stack, userId, [2, 6, 12]);
    const page = await device('horizon', cookie, userId);
    // By default the next 3 days: one card.
    await expect.poll(() => keptItems(page, userId)).toBe(1);
    await page.goto(`${env.stack.url}/settings?section=device`);
    const days = page.getByLabel('Cards to keep');
    expect(await days.inputValue()).toBe('3');
    await page.getByText('Kept on this device: 1 cards.').waitFor();
    await days.selectOption({ label: 'Due in the next 7 days' });
    await page.getByText('Kept on this device: 2 cards.').waitFor();
    expect(await keptItems(page, userId)).toBe(2);
    // The choice is the device's, and stays.
    await page.reload();
    expect(await page.getByLabel('Cards to keep').inputValue()).toBe('7');
    await page.getByLabel('Cards to keep').selectOption({ label: 'Due in the next 14 days' });
    await page.getByText('Kept on this device: 3 cards.').waitFor();
  });

  it('says on a screen that needs the network that it does, and nothing once the network is back', async () => {
    const { cookie, userId } = await learner('needsnetwork', 1);
    const page = await device('needs-network', cookie, userId);
    await goOffline(page.context());
    await page.goto(`${env.stack.url}/import`);
    await page
      .getByText('You are offline. This page needs the network and works again once you are back online;', {
        exact: false,
      })
      .waitFor();
    await goOnline(page);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Import cards' }).waitFor();
    expect(await page.getByText('This page needs the network', { exact: false }).count()).toBe(0);
  });
});

describe("a card's pictures kept for offline practice", () => {
  it('keeps a picture whose first fetch failed: the device tries again a moment later', async () => {
    const { cookie, userId, api } = await learner('mediaretry', 1);
    const file = await addCardFile(env.stack.url, cookie, 'retry.png', 'image/png', await picture());
    await api.mutate('cards.createMany', { cards: [{ front: `Which picture?\n\n![retry](${file})`, back: 'This' }] });
    await cardsMadeEarlier(env.stack, userId, 1);
    const page = await openTestPage(env.browser, 'media-retry', { serviceWorkers: 'allow', locale: 'en-US' });
    // The server is busy the first time the service worker fetches the picture to keep it.
    let refused = 0;
    await page.context().route(
      (url) => url.pathname === file,
      (route) => {
        if (refused > 0 || !route.request().serviceWorker()) return route.fallback();
        refused += 1;
        return route.fulfill({ status: 503, body: 'busy' });
      },
    );
    await useSessionCookie(page, env.stack.url, cookie);
    await page.goto(`${env.stack.url}/dashboard`);
    await underServiceWorker(page);
    await expect.poll(() => keptItems(page, userId)).toBe(2);
    await expect.poll(() => keptFiles(page)).toBe(1);
    expect(refused).toBe(1);
  });
});

describe("a note of the learner's own note type, practised offline", () => {
  it("is drawn with its note type's styling, as online", async () => {
    const { cookie, userId, api } = await learner('notestyle', 1);
    const type = (await api.mutate('cards.createNoteType', {
      name: 'Slanted',
      kind: 'standard',
      fields: ['Word', 'Meaning'],
      templates: [{ name: 'Card 1', front: '{{Word}}', back: '{{Meaning}}' }],
      css: '.card { font-style: italic; letter-spacing: 2px; }',
    })) as { id: string };
    await api.mutate('cards.create', { noteTypeId: type.id, fields: ['gato', 'cat'] });
    await cardsMadeEarlier(env.stack, userId, 1);
    const page = await device('note-style', cookie, userId);
    await expect.poll(() => keptItems(page, userId)).toBe(2);

    await goOffline(page.context());
    await page.goto(`${env.stack.url}/practice/session`);
    await page.getByText('You are offline: practice goes on with the cards kept on this device.').waitFor();
    const question = page.getByRole('region', { name: 'Question' });
    await question.waitFor();
    if (!((await question.textContent()) ?? '').includes('gato')) await rate(page, '3');
    await question.getByText('gato').waitFor();
    const drawn = () =>
      page.evaluate<string[]>(`(() => {
        const style = getComputedStyle(document.querySelector('[data-note-type="${type.id}"]'));
        return [style.fontStyle, style.letterSpacing];
      })()`);
    await expect.poll(drawn).toEqual(['italic', '2px']);
  });
});
