// Engram as an installed app (issue 29), in Chromium through the real gateway: what a browser needs to offer to
// install it, the app opening with no network in either language, and a new version announced and taken on the
// next start, never in the middle of a session.
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openTestPage, useBrowserStack } from '@engram/testkit/browser';
import { signUpThroughGateway } from '@engram/testkit/stack';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { trpcClient } from '../support/trpc-client.ts';
import { useSessionCookie } from './support/auth.ts';
import { goOffline, goOnline, seeServiceWorkerRequests, underServiceWorker } from './support/offline.ts';

seeServiceWorkerRequests();
// The gateway serves a copy of the built app, so a test can put the next version in its place.
const dist = mkdtempSync(join(tmpdir(), 'engram-web-'));
cpSync(fileURLToPath(new URL('../../web/dist', import.meta.url)), dist, { recursive: true });
afterAll(() => rmSync(dist, { recursive: true, force: true }));
// A stack of its own: its pages call the API from the origin of the gateway serving the copy, and identity
// trusts one public origin, the stack's.
const env = useBrowserStack({ extraEnv: { WEB_DIST_DIR: dist } });

/** A signed-in learner's page on their dashboard, where the app's service worker is registered. */
async function open(name: string, locale = 'en-US') {
  const page = await openTestPage(env.browser, name, { locale, serviceWorkers: 'allow' });
  const cookie = await signUpThroughGateway(env.stack.url, name);
  await trpcClient(env.stack.url, cookie).mutate('settings.completeOnboarding', { timezone: 'America/Sao_Paulo' });
  await useSessionCookie(page, env.stack.url, cookie);
  await page.goto(`${env.stack.url}/dashboard`);
  await underServiceWorker(page);
  return page;
}

/** The signed-in home, and what it says with no network, in each language. */
const HOME = {
  'en-US': { title: 'Dashboard', offline: 'You are offline: practice goes on with the cards kept on this device.' },
  'pt-BR': {
    title: 'Painel',
    offline: 'Você está sem conexão: a prática continua com os cartões guardados neste aparelho.',
  },
};

/** Chromium's own verdict on installing the page, and the manifest it read. */
async function installability(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  const { installabilityErrors: all } = await cdp.send('Page.getInstallabilityErrors');
  // A test's profile is a private one, where Chromium offers no install whatever the page; that is the profile's.
  const installabilityErrors = all.filter((error) => error.errorId !== 'in-incognito');
  const { errors, url } = await cdp.send('Page.getAppManifest');
  return { installabilityErrors, manifestErrors: errors, manifestUrl: url };
}

/** The mark the next version leaves once it has taken over, read in a page or in a service worker. */
const TAKEN = "caches.open('engram-test').then((c) => c.match('/taken')).then((r) => (r ? r.text() : null))";

describe('the installable app', () => {
  it('meets the install criteria: a manifest with a name, icons, a theme colour and standalone display, and a service worker', async () => {
    const page = await open('install-criteria');
    expect(await installability(page)).toEqual({
      installabilityErrors: [],
      manifestErrors: [],
      manifestUrl: `${env.stack.url}/manifest.webmanifest`,
    });
    const response = await fetch(`${env.stack.url}/manifest.webmanifest`);
    expect(response.headers.get('content-type')).toContain('application/manifest+json');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const manifest = (await response.json()) as { icons: { src: string; sizes: string; purpose: string }[] };
    expect(manifest).toMatchObject({
      name: 'Engram',
      display: 'standalone',
      theme_color: '#4f46e5',
      start_url: '/dashboard',
    });
    for (const icon of manifest.icons) {
      const image = await fetch(`${env.stack.url}${icon.src}`);
      expect(image.headers.get('content-type')).toBe('image/png');
      const bytes = Buffer.from(await image.arrayBuffer());
      expect(`${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`).toBe(icon.sizes);
    }
    expect(manifest.icons.map((icon) => icon.purpose)).toContain('maskable');
    expect((await fetch(`${env.stack.url}/sw.js`)).headers.get('cache-control')).toBe('no-cache');
    expect(await page.locator('meta[name="theme-color"]').getAttribute('content')).toBe('#4f46e5');
  });

  for (const locale of ['en-US', 'pt-BR'] as const) {
    it(`opens with no network once visited, signed in, its pages and their code there too (${locale})`, async () => {
      const page = await open(`offline-shell-${locale}`, locale);
      await goOffline(page.context());
      await page.goto(`${env.stack.url}/`);
      // The learner is still signed in on this device: the app opens on their dashboard, and says it is offline.
      await page.getByRole('heading', { level: 1, name: HOME[locale].title }).waitFor();
      await page.getByText(HOME[locale].offline).waitFor();
      // Another page, whose code loads only when it is opened: from the service worker's copy.
      await page.goto(`${env.stack.url}/help`);
      await page.getByRole('heading', { level: 1, name: locale === 'en-US' ? 'Help' : 'Ajuda' }).waitFor();
      await goOnline(page);
      await page.goto(`${env.stack.url}/terms`);
      await page
        .getByRole('heading', { level: 1, name: locale === 'en-US' ? 'Terms of service' : 'Termos de serviço' })
        .waitFor();
    });
  }

  it('no longer opens as the learner once their session has ended elsewhere or expired: it asks them to sign in', async () => {
    const page = await open('offline-ended');
    const kept = "localStorage.getItem('engram.last-session')";
    expect(await page.evaluate(kept)).not.toBeNull();
    // Signed out everywhere from another device: identity ends every session of theirs.
    const cookie = (await page.context().cookies()).map(({ name, value }) => `${name}=${value}`).join('; ');
    const revoked = await fetch(`${env.stack.url}/api/auth/revoke-sessions`, {
      method: 'POST',
      headers: { cookie, origin: env.stack.url, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(revoked.status).toBe(200);
    // The next page opened with the network learns it, and the device forgets the learner.
    await page.goto(`${env.stack.url}/dashboard`);
    await page.waitForURL(/\/auth\/sign-in/);
    expect(await page.evaluate(kept)).toBeNull();
    await goOffline(page.context());
    await page.goto(`${env.stack.url}/dashboard`);
    await page.waitForURL(/\/auth\/sign-in/);

    // A session kept on the device that has expired since opens nothing either.
    const other = await open('offline-expired');
    // (Changed on a page that keeps no session, so the dashboard's own keeping, which may still be under way, cannot
    // write it back.)
    await other.goto(`${env.stack.url}/help`);
    await other.evaluate(`{
      const kept = JSON.parse(localStorage.getItem('engram.last-session'));
      kept.session.expiresAt = new Date(Date.now() - 60_000).toISOString();
      localStorage.setItem('engram.last-session', JSON.stringify(kept));
    }`);
    await goOffline(other.context());
    await other.goto(`${env.stack.url}/dashboard`);
    await other.waitForURL(/\/auth\/sign-in/);
  });

  it('announces a new version and takes it on the next start, never in the middle of a session', async () => {
    const page = await open('update');
    const context = page.context();
    // The next version is deployed: the same worker, plus a mark of its own once it takes over.
    appendFileSync(
      join(dist, 'sw.js'),
      "\nself.addEventListener('activate', () => caches.open('engram-test').then((c) => c.put('/taken', new Response('next'))));\n",
    );
    const taken = (on: Page) => on.evaluate(TAKEN);
    // The browser looks for a new version at each start and now and then; here, now.
    await page.evaluate('navigator.serviceWorker.ready.then((registration) => registration.update()).then(() => true)');
    await page.getByText('A new version of Engram is ready. It starts the next time you open Engram.').waitFor();
    // Mid-session the page keeps the version it started with.
    expect(await taken(page)).toBeNull();

    // Every tab of the app closes: the browser hands over to the waiting version once the last one has gone (and the
    // old version has finished what it was doing), which a loaded machine may take a moment to do.
    await page.close();
    const takenInWorker = async () => {
      for (const worker of context.serviceWorkers()) {
        const mark = await worker.evaluate(TAKEN).catch(() => null);
        if (mark) return mark;
      }
      return null;
    };
    await expect.poll(takenInWorker, { timeout: 30_000 }).toBe('next');
    // The next start opens under the new version.
    const next = await context.newPage();
    await next.goto(`${env.stack.url}/dashboard`);
    await next.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    expect(await taken(next)).toBe('next');
    expect(await next.evaluate('navigator.serviceWorker.controller?.state')).toBe('activated');
  });
});
