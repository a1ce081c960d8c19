// The admin area's operations (docs/product.md#roles-and-permissions) on better-auth's admin plugin: an admin lists
// and searches users, creates one, sets a role and a password, bans (with reason and expiry) and unbans, revokes a
// user's sessions, impersonates and stops, and deletes; an admin cannot ban themselves; a banned user cannot sign
// in and is told why; and a user without the admin role is refused by every admin endpoint.

import { cookiesAfter } from '@engram/testkit/mailbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BANNED_USER_MESSAGE } from '../../src/auth.js';
import { type IdentityHarness, PASSWORD, startIdentityHarness, uniqueEmail } from '../harness.js';

let identity: IdentityHarness;
let adminCookie: string;
let adminId: string;
const adminEmail = uniqueEmail('admin');

beforeAll(async () => {
  identity = await startIdentityHarness({ adminEmails: [adminEmail] });
  adminCookie = await identity.signUpVerified({ email: adminEmail, password: PASSWORD, name: 'Ada Admin' });
  adminId = (await identity.db.user.findUniqueOrThrow({ where: { email: adminEmail } })).id;
});
afterAll(() => identity?.stop());

async function member(label: string) {
  const email = uniqueEmail(label);
  const cookie = await identity.signUpVerified({ email, password: PASSWORD, name: label });
  const { id } = await identity.db.user.findUniqueOrThrow({ where: { email } });
  return { email, cookie, id };
}

const asAdmin = (path: string, body: unknown) =>
  identity.post(`/api/auth/admin/${path}`, { body, cookie: adminCookie });

describe('an admin', () => {
  it('lists and searches users', async () => {
    const { email } = await member('findable');
    const found = await identity.get(
      `/api/auth/admin/list-users?searchValue=${encodeURIComponent(email)}&searchField=email&limit=10`,
      adminCookie,
    );
    expect(found.status).toBe(200);
    const { users, total } = (await found.json()) as { users: { email: string }[]; total: number };
    expect(total).toBe(1);
    expect(users.map((user) => user.email)).toEqual([email]);
  });

  it('creates a user, sets their role and password', async () => {
    const email = uniqueEmail('created');
    const created = await asAdmin('create-user', { email, password: PASSWORD, name: 'Made By Admin', role: 'user' });
    expect(created.status).toBe(200);
    const { user } = (await created.json()) as { user: { id: string } };
    expect((await asAdmin('set-role', { userId: user.id, role: 'admin' })).status).toBe(200);
    expect((await identity.db.user.findUniqueOrThrow({ where: { id: user.id } })).role).toBe('admin');
    const unknownRole = await asAdmin('set-role', { userId: user.id, role: 'emperor' });
    expect(unknownRole.status).toBe(400);

    expect((await asAdmin('set-user-password', { userId: user.id, newPassword: 'a brand new secret' })).status).toBe(
      200,
    );
    await identity.db.user.update({ where: { id: user.id }, data: { emailVerified: true } });
    const signIn = await identity.post('/api/auth/sign-in/email', { body: { email, password: 'a brand new secret' } });
    expect(signIn.status).toBe(200);
  });

  it('bans with a reason and an expiry: the session says banned, signing in is refused in the product’s words; unbanning lets them back', async () => {
    const { email, cookie, id } = await member('banned');
    const banned = await asAdmin('ban-user', { userId: id, banReason: 'spam', banExpiresIn: 3600 });
    expect(banned.status).toBe(200);
    const stored = await identity.db.user.findUniqueOrThrow({ where: { id } });
    expect(stored).toMatchObject({ banned: true, banReason: 'spam' });
    expect(stored.banExpires?.getTime()).toBeGreaterThan(Date.now());
    expect((await identity.getSession({ cookie })).user?.banned).toBe(true);

    const refused = await identity.post('/api/auth/sign-in/email', { body: { email, password: PASSWORD } });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'BANNED_USER', message: BANNED_USER_MESSAGE });

    expect((await asAdmin('unban-user', { userId: id })).status).toBe(200);
    expect((await identity.getSession({ cookie })).user?.banned).toBe(false);
    expect((await identity.post('/api/auth/sign-in/email', { body: { email, password: PASSWORD } })).status).toBe(200);
  });

  it('bans for a while: once the ban expires, the kept session is no longer banned', async () => {
    const { cookie, id } = await member('paroled');
    expect((await asAdmin('ban-user', { userId: id, banExpiresIn: 3600 })).status).toBe(200);
    expect((await identity.getSession({ cookie })).user?.banned).toBe(true);
    await identity.db.user.update({ where: { id }, data: { banExpires: new Date(Date.now() - 1_000) } });
    await identity.redis.del(
      ...(await identity.db.session.findMany({ where: { userId: id } })).map(
        (s) => `${identity.redisKeyPrefix}identity:${s.token}`,
      ),
    );
    expect((await identity.getSession({ cookie })).user?.banned).toBe(false);
    expect(await identity.db.user.findUniqueOrThrow({ where: { id } })).toMatchObject({
      banned: false,
      banExpires: null,
    });
  });

  it('cannot ban themselves', async () => {
    const refused = await asAdmin('ban-user', { userId: adminId });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'YOU_CANNOT_BAN_YOURSELF' });
    expect((await identity.db.user.findUniqueOrThrow({ where: { id: adminId } })).banned).toBe(false);
  });

  it("revokes a user's sessions", async () => {
    const { cookie, id } = await member('revoked');
    expect((await asAdmin('revoke-user-sessions', { userId: id })).status).toBe(200);
    expect((await identity.getSession({ cookie })).authenticated).toBe(false);
  });

  it('impersonates a user and stops, back in their own session', async () => {
    const { id, email } = await member('impersonated');
    const started = await asAdmin('impersonate-user', { userId: id });
    expect(started.status).toBe(200);
    const impersonating = cookiesAfter(started, adminCookie);
    const session = (await (await identity.get('/api/auth/get-session', impersonating)).json()) as {
      session: { impersonatedBy: string };
      user: { email: string };
    };
    expect(session).toMatchObject({ session: { impersonatedBy: adminId }, user: { email } });

    const stopped = await identity.post('/api/auth/admin/stop-impersonating', { cookie: impersonating });
    expect(stopped.status).toBe(200);
    const back = (await (await identity.get('/api/auth/get-session', cookiesAfter(stopped, impersonating))).json()) as {
      user: { email: string };
    };
    expect(back.user.email).toBe(adminEmail);
  });

  it('deletes a user', async () => {
    const { id } = await member('deleted');
    expect((await asAdmin('remove-user', { userId: id })).status).toBe(200);
    expect(await identity.db.user.findUnique({ where: { id } })).toBeNull();
  });
});

describe('a user without the admin role', () => {
  it('is refused by every admin endpoint, and nothing changes', async () => {
    const { cookie } = await member('plain');
    const victim = await member('victim');
    const posts: [string, unknown][] = [
      ['create-user', { email: uniqueEmail('x'), password: PASSWORD, name: 'x' }],
      ['set-role', { userId: victim.id, role: 'admin' }],
      ['set-user-password', { userId: victim.id, newPassword: 'hijacked password' }],
      ['update-user', { userId: victim.id, data: { name: 'Hijacked' } }],
      ['ban-user', { userId: victim.id }],
      ['unban-user', { userId: victim.id }],
      ['list-user-sessions', { userId: victim.id }],
      ['revoke-user-sessions', { userId: victim.id }],
      ['revoke-user-session', { sessionToken: 'whatever' }],
      ['impersonate-user', { userId: victim.id }],
      ['remove-user', { userId: victim.id }],
    ];
    for (const [path, body] of posts) {
      const refused = await identity.post(`/api/auth/admin/${path}`, { body, cookie });
      expect(refused.status, path).toBe(403);
    }
    for (const path of ['list-users', `get-user?id=${victim.id}`]) {
      expect((await identity.get(`/api/auth/admin/${path}`, cookie)).status, path).toBe(403);
    }
    const unchanged = await identity.db.user.findUniqueOrThrow({ where: { id: victim.id } });
    expect(unchanged).toMatchObject({ role: 'user', banned: false, name: 'victim' });
    expect((await identity.getSession({ cookie: victim.cookie })).authenticated).toBe(true);
  });
});
