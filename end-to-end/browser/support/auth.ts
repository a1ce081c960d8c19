// A person's way through the auth screens in the browser: signing up (and opening the verification mail
// from the dev mailbox), onboarding, and signing in with an email or a username.
import { randomBytes } from 'node:crypto';
import { followVerificationMail, openTestPage } from '@engram/testkit/browser';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';

export interface TestUser {
  name: string;
  username: string;
  email: string;
  password: string;
}

/** A user no other test has, named after `label`. */
export function newUser(label: string): TestUser {
  const suffix = randomBytes(4).toString('hex');
  return {
    name: `${label[0]?.toUpperCase()}${label.slice(1)} Tester`,
    username: `${label}_${suffix}`,
    email: `${label}-${suffix}@example.com`,
    password: 'correct horse battery',
  };
}

/** Fills and sends the sign-up form; identity answers by mailing a verification link. */
export async function fillSignUp(page: Page, url: string, user: TestUser): Promise<void> {
  await page.goto(`${url}/auth/sign-up`);
  await page.getByLabel('Name', { exact: true }).fill(user.name);
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Create account' }).click();
}

/** Signs up and verifies the email: the new user ends signed in, on /onboarding. */
export async function signUp(page: Page, url: string, user: TestUser): Promise<void> {
  await fillSignUp(page, url, user);
  await page.getByText('Check your email for the verification link.').waitFor();
  await followVerificationMail(page, url, user.email);
  await page.waitForURL(`${url}/onboarding`);
}

/** Signs up, verifies and onboards: the user ends on the dashboard. */
export async function signUpAndOnboard(page: Page, url: string, user: TestUser): Promise<void> {
  await signUp(page, url, user);
  await page.getByRole('button', { name: 'Start learning' }).click();
  await page.waitForURL(`${url}/dashboard`);
}

/** Sends the sign-in form with an email or a username. */
export async function fillSignIn(page: Page, identifier: string, password: string): Promise<void> {
  await page.getByLabel('Username').fill(identifier);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Gives `page`'s browser the session cookies a sign-up through the gateway answered (`name=value; …`). */
export async function useSessionCookie(page: Page, url: string, cookie: string): Promise<void> {
  await page.context().addCookies(
    cookie.split('; ').map((pair) => {
      const [name = '', ...value] = pair.split('=');
      return { name, value: value.join('='), url };
    }),
  );
}

/**
 * A page of its own for a learner signed up through the gateway (their session `cookie`), on `screen` in `locale`,
 * with the page's Content-Security-Policy bypassed for the accessibility checker's script, which it would rightly
 * refuse.
 */
export async function openSignedIn(
  env: { browser: Browser; stack: { url: string } },
  name: string,
  screen: BrowserContextOptions,
  locale: string,
  cookie: string,
): Promise<Page> {
  const page = await openTestPage(env.browser, name, { ...screen, locale, bypassCSP: true });
  page.setDefaultTimeout(15_000);
  await useSessionCookie(page, env.stack.url, cookie);
  return page;
}

/** Safari on an iPhone, as it names itself. */
export const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

/**
 * Signs `user` in from a second device, a phone, with the sign-in call Safari on an iPhone makes. Gives what the
 * phone's session reads now (null once it is signed out).
 */
export async function signInFromPhone(url: string, user: TestUser): Promise<() => Promise<unknown>> {
  const response = await fetch(`${url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url, 'user-agent': IPHONE_SAFARI },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  if (response.status !== 200) throw new Error(`the phone's sign-in answered ${response.status}`);
  const cookie = response.headers
    .getSetCookie()
    .map((set) => set.split(';')[0])
    .join('; ');
  return async () => (await fetch(`${url}/api/auth/get-session`, { headers: { cookie } })).json();
}

// biome-ignore lint/suspicious/noExplicitAny: better-auth's answers, read field by field
type Json = any;

/** A better-auth endpoint (`path` under /api/auth) with the page's session, as the app calls it; refused, it throws. */
export async function authCall(page: Page, url: string, path: string, body?: unknown): Promise<Json> {
  const response =
    body === undefined
      ? await page.request.get(`${url}/api/auth/${path}`)
      : await page.request.post(`${url}/api/auth/${path}`, { data: body, headers: { origin: url } });
  if (!response.ok()) throw new Error(`${path}: ${response.status()} ${await response.text()}`);
  return response.json();
}
