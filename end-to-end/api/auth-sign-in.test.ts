// Signing up and in through the real gateway and identity, as the better-auth client does it, reading
// mail where a person would: the dev mailbox (GET /api/dev/mailbox). Verification, password and
// username sign-in, magic links and emailed codes (with their expiry and attempt limit), and a forgotten
// password (with an invalid token).
import { randomBytes } from 'node:crypto';
import { INVALID_TOKEN, OTP_ALLOWED_ATTEMPTS, USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH } from '@engram/contracts/auth';
import { codeIn, cookieFrom, linkIn, nextMail, readMailbox } from '@engram/testkit/mailbox';
import { sharedTestStack } from '@engram/testkit/shared-stack';
import { startSecondGateway, TEST_PASSWORD, type TestStack } from '@engram/testkit/stack';
import { beforeAll, describe, expect, it } from 'vitest';
import { authClient, expirePendingCodes } from '../support/auth-client.js';

let stack: TestStack;
let auth: ReturnType<typeof authClient>;

beforeAll(async () => {
  stack = await sharedTestStack();
  auth = authClient(stack);
});

const emailFor = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.com`;

/** Signs up and follows the mailed link; returns the address and the session cookie. */
async function verifiedUser(label: string, extra: Record<string, string> = {}) {
  const email = emailFor(label);
  expect((await auth.post('/sign-up/email', { email, password: TEST_PASSWORD, name: label, ...extra })).status).toBe(
    200,
  );
  const verified = await fetch(linkIn(await nextMail(stack.url, email, /^Verify your email/)), { redirect: 'manual' });
  expect(verified.status).toBe(302);
  return { email, cookie: cookieFrom(verified) };
}

describe('signing up', () => {
  it('mails a verification link to the dev mailbox; following it verifies the address and signs the user in', async () => {
    const email = emailFor('newcomer');
    const signUp = await auth.post('/sign-up/email', {
      email,
      password: TEST_PASSWORD,
      name: 'Nora Newcomer',
      callbackURL: '/dashboard',
    });
    expect(signUp.status).toBe(200);
    expect(((await signUp.json()) as { token: unknown }).token).toBeNull();
    expect(signUp.headers.getSetCookie()).toEqual([]);

    const [mail, ...others] = await readMailbox(stack.url, email);
    expect(others).toEqual([]);
    expect(mail).toEqual({
      to: email,
      subject: 'Verify your email for Engram',
      text: expect.stringContaining(`${stack.url}/api/auth/verify-email?token=`),
      html: expect.stringContaining('<a href='),
      sentAt: expect.any(String),
      channel: 'mail',
    });
    const early = await auth.post('/sign-in/email', { email, password: TEST_PASSWORD });
    expect(early.status).toBe(403);
    expect(await early.json()).toMatchObject({ code: 'EMAIL_NOT_VERIFIED' });

    const verified = await fetch(linkIn({ text: mail?.text ?? '' }), { redirect: 'manual' });
    expect(verified.status).toBe(302);
    expect(verified.headers.get('location')).toBe('/dashboard');
    const session = await auth.session(cookieFrom(verified));
    expect(session.user).toMatchObject({ email, name: 'Nora Newcomer', emailVerified: true, role: 'user' });
    expect((await auth.trpc('settings.getTimezone', cookieFrom(verified))).status).toBe(200);
  });

  it('answers the dev mailbox only for an address or a phone number, and never in production', async () => {
    const missing = await fetch(`${stack.url}/api/dev/mailbox`);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      code: 'BAD_REQUEST',
      message: 'to: must be an email address or a phone number in E.164 (+5511912345678)',
    });
    for (const to of ['not-an-address', '5511912345678', '+55 11 91234 5678']) {
      expect((await fetch(`${stack.url}/api/dev/mailbox?to=${encodeURIComponent(to)}`)).status).toBe(400);
    }
    expect(await readMailbox(stack.url, emailFor('nobody'))).toEqual([]);
    expect(await readMailbox(stack.url, '+5511912345678')).toEqual([]);

    const production = await startSecondGateway(stack, { NODE_ENV: 'production' });
    try {
      const response = await fetch(`${production.url}/api/dev/mailbox?to=${encodeURIComponent(emailFor('x'))}`);
      expect(response.status).toBe(404);
    } finally {
      await production.stop();
    }
  });
});

describe('signing in with a password or a username', () => {
  it('signs in by email or by username in any case, and refuses a wrong password', async () => {
    const { email } = await verifiedUser('ada', { username: 'Ada_Lovelace' });
    expect(await auth.signIn(email, TEST_PASSWORD)).toMatch(/session_token=/);

    const byUsername = await auth.post('/sign-in/username', { username: 'ADA_lovelace', password: TEST_PASSWORD });
    expect(byUsername.status).toBe(200);
    const session = await auth.session(cookieFrom(byUsername));
    expect(session.user).toMatchObject({ email, username: 'ada_lovelace', displayUsername: 'Ada_Lovelace' });

    const wrong = await auth.post('/sign-in/username', { username: 'ada_lovelace', password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ code: 'INVALID_USERNAME_OR_PASSWORD' });
    expect((await auth.post('/sign-in/email', { email, password: 'not the password' })).status).toBe(401);
  });

  it.each([
    ['too short', 'a'.repeat(USERNAME_MIN_LENGTH - 1), 'USERNAME_TOO_SHORT'],
    ['too long', 'a'.repeat(USERNAME_MAX_LENGTH + 1), 'USERNAME_TOO_LONG'],
    ['not letters, digits, _ or .', 'ada lovelace!', 'INVALID_USERNAME'],
  ])('refuses a username that is %s, and creates no account', async (_what, username, code) => {
    const email = emailFor('badname');
    const response = await auth.post('/sign-up/email', { email, password: TEST_PASSWORD, name: 'Bad', username });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code });
    expect(await readMailbox(stack.url, email)).toEqual([]);
  });

  it('accepts a username of exactly the longest length, and refuses it to a second account', async () => {
    const username = `u${randomBytes(16).toString('hex')}`.slice(0, USERNAME_MAX_LENGTH);
    await verifiedUser('longest', { username });
    const again = await auth.post('/sign-up/email', {
      email: emailFor('copycat'),
      password: TEST_PASSWORD,
      name: 'Copycat',
      username: username.toUpperCase(),
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ code: 'USERNAME_IS_ALREADY_TAKEN' });
  });
});

describe('magic links', () => {
  it('signs in with the link from the dev mailbox, once', async () => {
    const { email } = await verifiedUser('magic');
    expect((await auth.post('/sign-in/magic-link', { email, callbackURL: '/dashboard' })).status).toBe(200);
    const link = linkIn(await nextMail(stack.url, email, /sign-in link/));
    expect(link.startsWith(`${stack.url}/api/auth/magic-link/verify?token=`)).toBe(true);

    const used = await fetch(link, { redirect: 'manual' });
    expect(used.status).toBe(302);
    expect(used.headers.get('location')).toBe(`${stack.url}/dashboard`);
    expect((await auth.session(cookieFrom(used))).user.email).toBe(email);

    const again = await fetch(link, { redirect: 'manual' });
    expect(again.headers.get('location')).toBe(`${stack.url}/dashboard?error=${INVALID_TOKEN}`);
    expect(again.headers.getSetCookie()).toEqual([]);
  });

  it('creates a verified account for a new address', async () => {
    const email = emailFor('magic-new');
    await auth.post('/sign-in/magic-link', { email, callbackURL: '/dashboard', newUserCallbackURL: '/onboarding' });
    const used = await fetch(linkIn(await nextMail(stack.url, email, /sign-in link/)), { redirect: 'manual' });
    expect(used.headers.get('location')).toBe(`${stack.url}/onboarding`);
    expect((await auth.session(cookieFrom(used))).user).toMatchObject({ email, emailVerified: true });
  });

  it('refuses a link past its expiry', async () => {
    const { email } = await verifiedUser('late-link');
    await auth.post('/sign-in/magic-link', { email, callbackURL: '/dashboard' });
    const link = linkIn(await nextMail(stack.url, email, /sign-in link/));
    expect(await expirePendingCodes(stack)).toBeGreaterThan(0);

    const late = await fetch(link, { redirect: 'manual' });
    expect(late.headers.get('location')).toBe(`${stack.url}/dashboard?error=${INVALID_TOKEN}`);
    expect(late.headers.getSetCookie()).toEqual([]);
  });
});

describe('emailed codes', () => {
  const sendCode = async (email: string) => {
    const seen = (await readMailbox(stack.url, email)).length;
    expect((await auth.post('/email-otp/send-verification-otp', { email, type: 'sign-in' })).status).toBe(200);
    return codeIn(await nextMail(stack.url, email, /code/, seen));
  };
  const signInWith = (email: string, otp: string) => auth.post('/sign-in/email-otp', { email, otp });
  const wrong = (otp: string) => String((Number(otp) + 1) % 1_000_000).padStart(6, '0');

  it('signs in with the six-digit code from the dev mailbox', async () => {
    const { email } = await verifiedUser('coded');
    const otp = await sendCode(email);
    expect(otp).toMatch(/^\d{6}$/);
    const response = await signInWith(email, otp);
    expect(response.status).toBe(200);
    expect((await auth.session(cookieFrom(response))).user.email).toBe(email);
    expect((await signInWith(email, otp)).status).toBe(400);
  });

  it(`refuses even the right code after ${OTP_ALLOWED_ATTEMPTS} wrong ones, until a new one is sent`, async () => {
    const { email } = await verifiedUser('guesser');
    const otp = await sendCode(email);
    for (let attempt = 0; attempt < OTP_ALLOWED_ATTEMPTS; attempt += 1) {
      const response = await signInWith(email, wrong(otp));
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'INVALID_OTP' });
    }
    const locked = await signInWith(email, otp);
    expect(locked.status).toBe(403);
    expect(await locked.json()).toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
    expect(locked.headers.getSetCookie()).toEqual([]);

    expect((await signInWith(email, await sendCode(email))).status).toBe(200);
  });

  it('refuses a code past its expiry', async () => {
    const { email } = await verifiedUser('slowpoke');
    const otp = await sendCode(email);
    expect(await expirePendingCodes(stack)).toBeGreaterThan(0);
    const response = await signInWith(email, otp);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'OTP_EXPIRED' });
  });
});

describe('a forgotten password', () => {
  it('mails a link to the web’s reset page; the new password works, the old one and every session end', async () => {
    const { email, cookie } = await verifiedUser('forgetful');
    const reset = await auth.post('/request-password-reset', { email, redirectTo: '/auth/reset-password' });
    expect(reset.status).toBe(200);
    const opened = await fetch(linkIn(await nextMail(stack.url, email, /Reset your/)), { redirect: 'manual' });
    expect(opened.status).toBe(302);
    const landing = new URL(opened.headers.get('location') ?? '');
    expect(`${landing.origin}${landing.pathname}`).toBe(`${stack.url}/auth/reset-password`);
    const token = landing.searchParams.get('token');
    expect(token).toEqual(expect.any(String));

    const changed = await auth.post('/reset-password', { newPassword: 'a brand new secret', token });
    expect(changed.status).toBe(200);
    expect((await auth.post('/sign-in/email', { email, password: TEST_PASSWORD })).status).toBe(401);
    expect(await auth.signIn(email, 'a brand new secret')).toMatch(/session_token=/);
    expect((await auth.trpc('settings.getTimezone', cookie)).status).toBe(401);
    expect((await auth.post('/reset-password', { newPassword: 'yet another secret', token })).status).toBe(400);
  });

  it('lands an invalid or missing token on the web’s reset page with ?error=INVALID_TOKEN, and changes nothing', async () => {
    const { email } = await verifiedUser('tampered');
    for (const token of ['not-a-real-token', '%20']) {
      const callbackURL = encodeURIComponent('/auth/reset-password');
      const opened = await fetch(`${stack.url}/api/auth/reset-password/${token}?callbackURL=${callbackURL}`, {
        redirect: 'manual',
      });
      expect(opened.status).toBe(302);
      expect(opened.headers.get('location')).toBe(`${stack.url}/auth/reset-password?error=${INVALID_TOKEN}`);
    }
    for (const token of ['not-a-real-token', '']) {
      const response = await auth.post('/reset-password', { newPassword: 'a brand new secret', token });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: INVALID_TOKEN });
    }
    expect(await auth.signIn(email, TEST_PASSWORD)).toMatch(/session_token=/);
  });
});
