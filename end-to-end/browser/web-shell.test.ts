// The shell around the app's screens, as a visitor meets it in Chromium through the real gateway: the public
// pages (and the HTML crawlers read), the themes and the keyboard's way in.
import { openTestPage, type TestPageOptions, useBrowserStack } from '@engram/testkit/browser';
import { SHARED_SUPPORT_EMAIL as SUPPORT_EMAIL } from '@engram/testkit/shared-stack';
import { signUpThroughGateway } from '@engram/testkit/stack';
import { describe, expect, it } from 'vitest';
import { useSessionCookie } from './support/auth.ts';
import { dismissBanner, visit as visitAs } from './support/visitor.ts';

const env = useBrowserStack();
const visit = (name: string, options?: TestPageOptions) => visitAs(env.browser, name, options);

const LANDING_HEADING = 'Turn what you learn into what you remember';

describe('the public pages', () => {
  it('are served with their own title, description, canonical link and Open Graph tags', async () => {
    for (const [path, title] of [
      ['/', 'Engram: turn what you learn into what you remember'],
      ['/terms', 'Terms of service · Engram'],
      ['/privacy', 'Privacy notice · Engram'],
      ['/help', 'Help · Engram'],
    ]) {
      const response = await fetch(`${env.stack.url}${path}`, { headers: { accept: 'text/html' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-robots-tag')).toBeNull();
      const html = await response.text();
      expect(html).toContain(`<title>${title}</title>`);
      expect(html).toContain(`<meta property="og:title" content="${title}" />`);
      expect(html).toContain(`<link rel="canonical" href="${env.stack.url}${path}" />`);
      expect(html).toMatch(/<meta name="description" content="[^"]{40,}" \/>/);
      expect(html).toMatch(/<meta property="og:description" content="[^"]{40,}" \/>/);
      expect(html).not.toContain('noindex');
    }
  });

  it('are listed in sitemap.xml, which robots.txt points to; the app and the API are not', async () => {
    const robots = await (await fetch(`${env.stack.url}/robots.txt`)).text();
    expect(robots).toContain('Disallow: /api/');
    expect(robots).toContain(`Sitemap: ${env.stack.url}/sitemap.xml`);
    const sitemap = await fetch(`${env.stack.url}/sitemap.xml`);
    expect(sitemap.headers.get('content-type')).toContain('application/xml');
    const locations = [...(await sitemap.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locations.sort()).toEqual(['/', '/help', '/privacy', '/terms'].map((path) => `${env.stack.url}${path}`));
  });

  it('keep the protected app, the auth views and unknown paths out of search engines', async () => {
    for (const path of ['/dashboard', '/practice/new', '/account/settings', '/auth/sign-in', '/no-such-page']) {
      const response = await fetch(`${env.stack.url}${path}`, { headers: { accept: 'text/html' } });
      expect(response.headers.get('x-robots-tag'), path).toBe('noindex, nofollow');
      const html = await response.text();
      expect(html, path).toContain('<meta name="robots" content="noindex, nofollow" />');
      expect(html, path).not.toContain('rel="canonical"');
    }
  });

  it('are readable signed out, in either language, with the configured support address', async () => {
    const { page } = await visit('terms-signed-out');
    await page.goto(`${env.stack.url}/terms`);
    await page.getByRole('heading', { level: 1, name: 'Terms of service' }).waitFor();
    await dismissBanner(page);
    expect(await page.title()).toBe('Terms of service · Engram');
    expect(await page.getByRole('link', { name: SUPPORT_EMAIL }).getAttribute('href')).toBe(`mailto:${SUPPORT_EMAIL}`);

    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy' }).click();
    await page.getByRole('heading', { level: 1, name: 'Privacy notice' }).waitFor();
    for (const processor of ['Amazon Simple Email Service', 'Redis', 'Amazon Bedrock', 'Stripe', 'Google Analytics 4'])
      await page.getByText(processor, { exact: false }).first().waitFor();
    await page.getByRole('cell', { name: 'cc_cookie' }).waitFor();
    await page.getByRole('cell', { name: '182 days' }).waitFor();

    await page.getByRole('contentinfo').getByLabel('Language').selectOption('pt-BR');
    await page.getByRole('heading', { level: 1, name: 'Aviso de privacidade' }).waitFor();
    expect(await page.title()).toBe('Aviso de privacidade · Engram');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Ajuda' }).click();
    await page.getByRole('heading', { level: 1, name: 'Ajuda' }).waitFor();
    await page.getByRole('contentinfo').getByLabel('Idioma').selectOption('en');
    await page.getByRole('heading', { level: 1, name: 'Help' }).waitFor();
    await page.getByRole('link', { name: 'Engram' }).first().click();
    await page.getByRole('heading', { name: LANDING_HEADING }).waitFor();
    expect(await page.title()).toBe('Engram: turn what you learn into what you remember');
    await page.getByRole('link', { name: 'Sign in' }).first().click();
    await page.getByLabel('Password', { exact: true }).waitFor();
    expect(await page.title()).toBe('Engram');
  });

  it('offer a signed-in user the way back into the app, and send them from / into it (the dashboard, or onboarding first)', async () => {
    const cookie = await signUpThroughGateway(env.stack.url, 'shell');
    const page = await openTestPage(env.browser, 'public-signed-in', { locale: 'en-US' });
    await useSessionCookie(page, env.stack.url, cookie);
    await page.goto(`${env.stack.url}/privacy`);
    await page.getByRole('heading', { level: 1, name: 'Privacy notice' }).waitFor();
    await page.getByRole('link', { name: 'Open Engram' }).waitFor();
    expect(await page.getByRole('link', { name: 'Sign in' }).count()).toBe(0);
    await page.goto(env.stack.url);
    await page.waitForURL(/\/(onboarding|dashboard)$/);
  });

  it('show the plans from billing’s catalogue on the landing page, in the visitor’s currency', async () => {
    const { page } = await visit('landing-plans');
    await page.goto(env.stack.url);
    await dismissBanner(page);
    const plans = page.getByRole('region', { name: 'Plans' });
    await plans.getByText('$8.00 / month').waitFor();
    await plans.getByText('$15.00 / month').waitFor();
    await plans.getByLabel('Currency').selectOption('eur');
    await plans.getByText('€7.50 / month').waitFor();
    await plans.getByRole('link', { name: 'Sign up for Pro' }).click();
    await page.waitForURL(`${env.stack.url}/auth/sign-up`);

    const portuguese = await visit('landing-plans-pt', { locale: 'pt-BR' });
    await portuguese.page.goto(env.stack.url);
    await portuguese.page.getByRole('region', { name: 'Planos' }).getByText('R$ 39,90 / mês').waitFor();
  });
});

describe('the theme', () => {
  it('follows the system, is switched from the footer, and stays switched after a reload', async () => {
    const { page } = await visit('theme', { colorScheme: 'dark' });
    await page.goto(env.stack.url);
    await dismissBanner(page);
    const theme = () => page.evaluate<string>('document.documentElement.dataset.theme');
    const background = () => page.evaluate<string>('getComputedStyle(document.body).backgroundColor');
    expect(await theme()).toBe('dark');
    const dark = await background();

    await page.getByRole('contentinfo').getByLabel('Theme').selectOption('light');
    expect(await theme()).toBe('light');
    expect(await background()).not.toBe(dark);
    await page.reload();
    await page.getByRole('heading', { name: LANDING_HEADING }).waitFor();
    expect(await theme()).toBe('light');

    await page.getByRole('contentinfo').getByLabel('Theme').selectOption('dark');
    expect(await theme()).toBe('dark');
    expect(await background()).toBe(dark);
    await page.getByRole('contentinfo').getByLabel('Theme').selectOption('system');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(theme).toBe('light');
  });
});

describe('the keyboard', () => {
  it('shows where focus is on every control of the landing page, footer included', async () => {
    const { page } = await visit('focus-visible');
    await page.goto(env.stack.url);
    await dismissBanner(page);
    await page.reload();
    await page.getByRole('heading', { name: LANDING_HEADING }).waitFor();
    await page.getByRole('region', { name: 'Plans' }).getByText('$8.00 / month').waitFor();
    const seen = new Set<string>();
    for (let step = 0; step < 40; step++) {
      await page.keyboard.press('Tab');
      const focus = await page.evaluate<{ name: string; outline: string; ring: string } | null>(`(() => {
        const element = document.activeElement;
        if (!element || element === document.body) return null;
        const style = getComputedStyle(element);
        return {
          name: element.tagName + ' ' + (element.getAttribute('aria-label') || element.textContent || '').trim().slice(0, 40),
          outline: style.outlineStyle === 'none' || style.outlineWidth === '0px' ? '' : style.outlineStyle,
          ring: style.boxShadow === 'none' ? '' : style.boxShadow,
        };
      })()`);
      if (!focus || seen.has(focus.name)) continue;
      seen.add(focus.name);
      expect(focus.outline || focus.ring, `no visible focus on ${focus.name}`).not.toBe('');
    }
    expect([...seen]).toEqual(
      expect.arrayContaining(['A Skip to content', 'A Sign up for Pro', 'BUTTON Cookie settings']),
    );
    expect([...seen].filter((name) => name.startsWith('SELECT'))).toHaveLength(3);
  });

  it('reaches a visible skip link first, which moves past the header to the page', async () => {
    const { page } = await visit('skip-link');
    await page.goto(`${env.stack.url}/help`);
    // The banner takes focus on a first visit (it is a dialog); once answered, pages open without it.
    await dismissBanner(page);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Help' }).waitFor();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Skip to content');
    const box = await skip.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(20);
    expect(await page.evaluate('getComputedStyle(document.activeElement).outlineStyle')).not.toBe('none');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement?.tagName')).toBe('MAIN');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('Boolean(document.activeElement?.closest("main"))')).toBe(true);
  });
});
