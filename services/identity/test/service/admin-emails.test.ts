// ADMIN_EMAILS: the listed addresses (whatever their case) get the admin role when their account is
// created, by any sign-up method; everyone else is a user.
import { linkIn } from '@engram/testkit/mailbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type IdentityHarness, PASSWORD, startIdentityHarness, uniqueEmail } from '../harness.js';

let identity: IdentityHarness;
const BOSS = 'Boss@Engram.example';
const OPERATOR = 'operator@engram.example';

beforeAll(async () => {
  identity = await startIdentityHarness({ adminEmails: [BOSS, OPERATOR] });
});
afterAll(() => identity?.stop());

it('makes a listed address an admin when it signs up with a password, whatever its case', async () => {
  const cookie = await identity.signUpVerified({ email: 'boss@engram.example', password: PASSWORD, name: 'Boss' });
  expect((await identity.getSession({ cookie })).user?.role).toBe('admin');
});

it('makes a listed address an admin when its account is made by a magic link', async () => {
  const sent = await identity.post('/api/auth/sign-in/magic-link', {
    body: { email: OPERATOR, callbackURL: '/dashboard' },
  });
  expect(sent.status).toBe(200);
  const verified = await identity.open(linkIn(await identity.nextMail(OPERATOR, /sign-in link/)));
  expect(verified.status).toBe(302);
  expect((await identity.db.user.findUniqueOrThrow({ where: { email: OPERATOR } })).role).toBe('admin');
});

it('makes everyone else a user', async () => {
  const cookie = await identity.signUpVerified({ email: uniqueEmail('learner'), password: PASSWORD, name: 'Learner' });
  expect((await identity.getSession({ cookie })).user?.role).toBe('user');
});
