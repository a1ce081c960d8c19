// A banned user can do nothing but see that they are banned and sign out (issue 24, hole 2): with the
// session a ban keeps, or with an API key they made before it, every other /api/auth endpoint answers
// 403 BANNED_USER in the admin plugin's words, and nothing changes (no organization, no invitation mail,
// no key, no profile, email or password change, no session revoked).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BANNED_USER_MESSAGE } from '../../src/auth.js';
import { type IdentityHarness, PASSWORD, startIdentityHarness, uniqueEmail } from '../harness.js';

let identity: IdentityHarness;
let adminCookie: string;
const adminEmail = uniqueEmail('banning-admin');

beforeAll(async () => {
  identity = await startIdentityHarness({ adminEmails: [adminEmail] });
  adminCookie = await identity.signUpVerified({ email: adminEmail, password: PASSWORD, name: 'Ada Admin' });
});
afterAll(() => identity?.stop());

/** A user who made an organization and an API key, then was banned: their kept session and their key. */
async function bannedUser(label: string) {
  const user = await identity.signedUpUser(label);
  const organization = await identity.post('/api/auth/organization/create', {
    body: { name: `${label} Guild`, slug: `${label}-${Date.now().toString(36)}` },
    cookie: user.cookie,
  });
  expect(organization.status).toBe(200);
  const { id: organizationId } = (await organization.json()) as { id: string };
  const created = await identity.post('/api/auth/api-key/create', { body: { name: 'before' }, cookie: user.cookie });
  expect(created.status).toBe(200);
  const apiKey = (await created.json()) as { key: string; id: string };
  const banned = await identity.post('/api/auth/admin/ban-user', {
    body: { userId: user.id, banReason: 'spam' },
    cookie: adminCookie,
  });
  expect(banned.status).toBe(200);
  return { ...user, organizationId, apiKey };
}

type Banned = Awaited<ReturnType<typeof bannedUser>>;

/** What a hostile banned user tries, by endpoint; GETs have no body. */
function attempts(user: Banned, invitee: string): [string, unknown?][] {
  return [
    ['/organization/create', { name: 'Spam Inc', slug: `spam-${Date.now().toString(36)}` }],
    ['/organization/invite-member', { email: invitee, role: 'member', organizationId: user.organizationId }],
    ['/organization/update', { organizationId: user.organizationId, data: { name: 'Renamed' } }],
    ['/organization/set-active', { organizationId: user.organizationId }],
    ['/organization/list'],
    ['/api-key/create', { name: 'after' }],
    ['/api-key/update', { keyId: user.apiKey.id, name: 'renamed' }],
    ['/api-key/delete', { keyId: user.apiKey.id }],
    ['/api-key/list'],
    ['/update-user', { name: 'Spammer' }],
    ['/change-email', { newEmail: uniqueEmail('elsewhere'), callbackURL: '/dashboard' }],
    ['/change-password', { currentPassword: PASSWORD, newPassword: 'another secret phrase' }],
    ['/list-sessions'],
    ['/revoke-sessions', {}],
    ['/revoke-other-sessions', {}],
    ['/multi-session/list-device-sessions'],
    ['/two-factor/enable', { password: PASSWORD }],
    ['/send-verification-email', { email: user.email }],
    ['/delete-user', { password: PASSWORD }],
  ];
}

const request = (path: string, body: unknown, headers: { cookie?: string; apiKey?: string }) => {
  const extra = headers.apiKey ? { 'x-api-key': headers.apiKey } : undefined;
  if (body !== undefined)
    return identity.post(`/api/auth${path}`, {
      body,
      ...(headers.cookie && { cookie: headers.cookie }),
      ...(extra && { headers: extra }),
    });
  return fetch(`${identity.httpUrl}/api/auth${path}`, {
    headers: { ...(headers.cookie && { cookie: headers.cookie }), ...extra },
  });
};

async function expectNothingChanged(user: Banned, invitee: string) {
  expect(await identity.db.member.count({ where: { userId: user.id } })).toBe(1);
  expect(await identity.db.invitation.count({ where: { organizationId: user.organizationId } })).toBe(0);
  expect(await identity.mailbox(invitee)).toEqual([]);
  expect(
    await identity.db.apikey.findMany({ where: { referenceId: user.id }, select: { id: true, name: true } }),
  ).toEqual([{ id: user.apiKey.id, name: 'before' }]);
  const stored = await identity.db.user.findUniqueOrThrow({ where: { id: user.id } });
  expect(stored).toMatchObject({ name: user.name, email: user.email, banned: true, twoFactorEnabled: false });
  expect((await identity.db.organization.findUniqueOrThrow({ where: { id: user.organizationId } })).name).toBe(
    `${user.name} Guild`,
  );
  expect((await identity.mailbox(user.email)).map((mail) => mail.subject)).toEqual(['Verify your email for Engram']);
}

describe('a banned user', () => {
  it('is refused by every auth endpoint with the session the ban keeps, and nothing changes', async () => {
    const user = await bannedUser('hostile');
    const invitee = uniqueEmail('invitee');
    const passwordBefore = await identity.db.account.findFirstOrThrow({ where: { userId: user.id } });
    for (const [path, body] of attempts(user, invitee)) {
      const refused = await request(path, body, { cookie: user.cookie });
      expect(refused.status, path).toBe(403);
      expect(await refused.json(), path).toEqual({ code: 'BANNED_USER', message: BANNED_USER_MESSAGE });
    }
    await expectNothingChanged(user, invitee);
    const passwordAfter = await identity.db.account.findFirstOrThrow({ where: { userId: user.id } });
    expect(passwordAfter.password).toBe(passwordBefore.password);
    expect((await identity.getSession({ cookie: user.cookie })).user?.banned).toBe(true);
  });

  it('is refused by every auth endpoint with an API key they made before the ban, and nothing changes', async () => {
    const user = await bannedUser('keyholder');
    const invitee = uniqueEmail('key-invitee');
    for (const [path, body] of attempts(user, invitee)) {
      const refused = await request(path, body, { apiKey: user.apiKey.key });
      expect(refused.status, path).toBe(403);
      expect(await refused.json(), path).toEqual({ code: 'BANNED_USER', message: BANNED_USER_MESSAGE });
    }
    await expectNothingChanged(user, invitee);
  });

  it('still sees their session, marked banned, and signs out', async () => {
    const user = await bannedUser('leaving');
    const session = await identity.get('/api/auth/get-session', user.cookie);
    expect(session.status).toBe(200);
    expect(((await session.json()) as { user: { banned: boolean } }).user.banned).toBe(true);

    const signedOut = await identity.post('/api/auth/sign-out', { cookie: user.cookie });
    expect(signedOut.status).toBe(200);
    expect((await identity.getSession({ cookie: user.cookie })).authenticated).toBe(false);
  });

  it('gets everything back once the ban is lifted', async () => {
    const user = await bannedUser('pardoned');
    const unbanned = await identity.post('/api/auth/admin/unban-user', {
      body: { userId: user.id },
      cookie: adminCookie,
    });
    expect(unbanned.status).toBe(200);
    expect((await request('/update-user', { name: 'Pardoned' }, { cookie: user.cookie })).status).toBe(200);
    expect((await identity.db.user.findUniqueOrThrow({ where: { id: user.id } })).name).toBe('Pardoned');
  });
});
