// A signed-in account through the real gateway, identity and cards: changing the email (confirmed from
// the old address), changing and setting a password, seeing and revoking sessions (refused at once on
// every gateway replica, tRPC included), deleting the account (the user's cards go with it), and
// ADMIN_EMAILS.
import { randomBytes } from 'node:crypto';
import {
  EMAIL_IS_THE_SAME_MESSAGE,
  SESSION_FRESH_AGE_SECONDS,
  SESSION_NOT_FRESH_MESSAGE,
} from '@engram/contracts/auth';
import { cookieFrom, linkIn, nextMail, readMailbox } from '@engram/testkit/mailbox';
import {
  signUpThroughGateway,
  startSecondGateway,
  startTestStack,
  TEST_PASSWORD,
  type TestStack,
} from '@engram/testkit/stack';
import { waitUntil } from '@engram/testkit/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ageSession, authClient, cardsOwnedBy, sessionTokenIn } from '../support/auth-client.js';

const ADMIN = `boss-${randomBytes(4).toString('hex')}@engram.example`;

let stack: TestStack;
let auth: ReturnType<typeof authClient>;

beforeAll(async () => {
  // A stack of its own: identity makes this file's address an admin (ADMIN_EMAILS, read at its start).
  stack = await startTestStack({ extraEnv: { ADMIN_EMAILS: `someone@else.example, ${ADMIN.toUpperCase()}` } });
  auth = authClient(stack);
});
afterAll(() => stack?.stop());

const emailFor = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.com`;

async function verifiedUser(label: string) {
  const email = emailFor(label);
  return { email, cookie: await signUpThroughGateway(stack.url, label, email) };
}

describe('changing the email', () => {
  it('asks the old address to confirm, then the new one to verify; only then does the email change', async () => {
    const { email, cookie } = await verifiedUser('mover');
    const newEmail = emailFor('moved');
    const asked = await auth.post('/change-email', { newEmail, callbackURL: '/settings' }, cookie);
    expect(asked.status).toBe(200);
    expect((await auth.session(cookie)).user.email).toBe(email);

    const confirmation = await nextMail(stack.url, email, /^Confirm your new email/);
    expect(confirmation.text).toContain(newEmail);
    expect((await fetch(linkIn(confirmation), { redirect: 'manual' })).status).toBe(302);
    expect((await auth.session(cookie)).user.email).toBe(email);

    const verification = await nextMail(stack.url, newEmail, /^Verify your email/);
    const verified = await fetch(linkIn(verification), { redirect: 'manual' });
    expect(verified.status).toBe(302);
    expect(verified.headers.get('location')).toBe('/settings');
    expect((await auth.session(cookie)).user).toMatchObject({ email: newEmail, emailVerified: true });
    expect(await auth.signIn(newEmail, TEST_PASSWORD)).toMatch(/session_token=/);
    expect((await auth.post('/sign-in/email', { email, password: TEST_PASSWORD })).status).toBe(401);
  });

  it('refuses the address the account already has', async () => {
    const { email, cookie } = await verifiedUser('same');
    const response = await auth.post('/change-email', { newEmail: email }, cookie);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ code: 'EMAIL_IS_THE_SAME', message: EMAIL_IS_THE_SAME_MESSAGE });
    expect(await readMailbox(stack.url, email)).toHaveLength(1);
  });
});

describe('passwords', () => {
  it('changes the password with the current one, ending the other sessions at once', async () => {
    const { email, cookie: laptop } = await verifiedUser('changer');
    const phone = await auth.signIn(email, TEST_PASSWORD);
    expect((await auth.trpc('settings.getTimezone', phone)).status).toBe(200);

    const wrong = await auth.post(
      '/change-password',
      { currentPassword: 'not it', newPassword: 'brand new secret' },
      laptop,
    );
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ code: 'INVALID_PASSWORD' });

    const changed = await auth.post(
      '/change-password',
      { currentPassword: TEST_PASSWORD, newPassword: 'brand new secret', revokeOtherSessions: true },
      laptop,
    );
    expect(changed.status).toBe(200);
    expect((await auth.trpc('settings.getTimezone', phone)).status).toBe(401);
    expect((await auth.trpc('settings.getTimezone', cookieFrom(changed))).status).toBe(200);
    expect((await auth.post('/sign-in/email', { email, password: TEST_PASSWORD })).status).toBe(401);
    expect(await auth.signIn(email, 'brand new secret')).toMatch(/session_token=/);
  });

  it('sets a first password by the emailed link for an account made by a magic link', async () => {
    const email = emailFor('linked');
    await auth.post('/sign-in/magic-link', { email, callbackURL: '/dashboard' });
    const signedIn = await fetch(linkIn(await nextMail(stack.url, email, /sign-in link/)), { redirect: 'manual' });
    expect((await auth.session(cookieFrom(signedIn))).user.email).toBe(email);
    expect((await auth.post('/sign-in/email', { email, password: 'my first password' })).status).toBe(401);

    await auth.post('/request-password-reset', { email, redirectTo: '/auth/reset-password' });
    const opened = await fetch(linkIn(await nextMail(stack.url, email, /Reset your/)), { redirect: 'manual' });
    const token = new URL(opened.headers.get('location') ?? '').searchParams.get('token');
    expect((await auth.post('/reset-password', { newPassword: 'my first password', token })).status).toBe(200);
    expect(await auth.signIn(email, 'my first password')).toMatch(/session_token=/);
  });
});

describe('sessions', () => {
  it('lists the account’s sessions and revokes another; it is refused on its very next request on every replica', async () => {
    const second = await startSecondGateway(stack);
    try {
      const { email, cookie: laptop } = await verifiedUser('revoker');
      const phone = await auth.signIn(email, TEST_PASSWORD);
      const onSecond = authClient(stack, second.url);
      // Both replicas have just seen the phone signed in, and remember it.
      expect((await auth.trpc('settings.getTimezone', phone)).status).toBe(200);
      expect((await onSecond.trpc('settings.getTimezone', phone)).status).toBe(200);

      const listed = await auth.get('/list-sessions', laptop);
      expect(listed.status).toBe(200);
      const sessions = (await listed.json()) as { token: string }[];
      expect(sessions.map((session) => session.token).toSorted()).toEqual(
        [sessionTokenIn(laptop), sessionTokenIn(phone)].toSorted(),
      );

      const revoked = await auth.post('/revoke-session', { token: sessionTokenIn(phone) }, laptop);
      expect(revoked.status).toBe(200);
      expect((await onSecond.trpc('settings.getTimezone', phone)).status).toBe(401);
      expect((await auth.trpc('settings.getTimezone', phone)).status).toBe(401);
      expect(await onSecond.session(phone)).toBeNull();
      expect((await onSecond.trpc('settings.getTimezone', laptop)).status).toBe(200);
    } finally {
      await second.stop();
    }
  });
});

describe('deleting the account', () => {
  async function learnerWithCards(label: string) {
    const user = await verifiedUser(label);
    for (const front of ['one', 'two']) {
      expect((await auth.trpcMutation('cards.create', user.cookie, { front, back: 'back' })).status).toBe(200);
    }
    const userId = (await auth.session(user.cookie)).user.id as string;
    expect(await cardsOwnedBy(stack, userId)).toBe(2);
    return { ...user, userId };
  }

  it('deletes it with the password: the session ends at once and the user’s cards are gone, no one else’s', async () => {
    const leaver = await learnerWithCards('leaver');
    const stayer = await learnerWithCards('stayer');
    const deleted = await auth.post('/delete-user', { password: TEST_PASSWORD }, leaver.cookie);
    expect(deleted.status).toBe(200);
    expect((await auth.trpc('cards.list', leaver.cookie)).status).toBe(401);
    await waitUntil('the cards service erased the user', async () => (await cardsOwnedBy(stack, leaver.userId)) === 0);
    expect(await cardsOwnedBy(stack, stayer.userId)).toBe(2);
    expect((await auth.post('/sign-in/email', { email: leaver.email, password: TEST_PASSWORD })).status).toBe(401);
  });

  it('deletes it from a fresh session without the password', async () => {
    const leaver = await learnerWithCards('fresh');
    expect((await auth.post('/delete-user', {}, leaver.cookie)).status).toBe(200);
    await waitUntil('the cards service erased the user', async () => (await cardsOwnedBy(stack, leaver.userId)) === 0);
  });

  it('refuses a stale session without the password with the not-fresh answer, and keeps everything', async () => {
    const keeper = await learnerWithCards('stale');
    await ageSession(stack, keeper.cookie, SESSION_FRESH_AGE_SECONDS + 60);
    const refused = await auth.post('/delete-user', {}, keeper.cookie);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ code: 'SESSION_NOT_FRESH', message: SESSION_NOT_FRESH_MESSAGE });
    expect((await auth.session(keeper.cookie)).user.id).toBe(keeper.userId);
    expect(await cardsOwnedBy(stack, keeper.userId)).toBe(2);

    expect((await auth.post('/delete-user', { password: TEST_PASSWORD }, keeper.cookie)).status).toBe(200);
    await waitUntil('the cards service erased the user', async () => (await cardsOwnedBy(stack, keeper.userId)) === 0);
  });
});

describe('ADMIN_EMAILS', () => {
  it('makes a listed address an admin at sign-up, whatever its case, and everyone else a user', async () => {
    const boss = await signUpThroughGateway(stack.url, 'boss', ADMIN);
    expect((await auth.session(boss)).user.role).toBe('admin');
    expect((await auth.get('/admin/list-users', boss)).status).toBe(200);

    const { cookie: learner } = await verifiedUser('learner');
    expect((await auth.session(learner)).user.role).toBe('user');
    expect((await auth.get('/admin/list-users', learner)).status).toBe(403);
  });
});
