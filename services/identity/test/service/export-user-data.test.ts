// Identity's part of a full data export (ExportUserData), through the real HTTP and gRPC servers: a learner who
// signed in twice, registered a passkey, turned two-factor on, made an API key, joined an organization and a
// team and was invited to another finds all of it in their part, with the session they export from marked
// current, and none of what opens the account (tokens, password hash, key, TOTP secret, backup codes,
// passkey key) nor anything of the organization's owner.
import { unary } from '@engram/kit/grpc/client';
import { cookiesAfter, linkIn } from '@engram/testkit/mailbox';
import { totpCode } from '@engram/testkit/totp';
import { createSoftwareAuthenticator, type RegistrationOptions } from '@engram/testkit/webauthn-authenticator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieFrom, type IdentityHarness, PASSWORD, PUBLIC_BASE_URL, startIdentityHarness } from '../harness.js';

let identity: IdentityHarness;

beforeAll(async () => {
  identity = await startIdentityHarness();
});
afterAll(() => identity?.stop());

type Person = Awaited<ReturnType<IdentityHarness['signedUpUser']>>;

/** The part as the test reads it: the fields it looks into by name, the rest as they come. */
interface IdentityPart {
  profile: { email: string; createdAt: string } & Record<string, unknown>;
  signInMethods: unknown[];
  sessions: { current: boolean; userAgent: string | null }[];
  passkeys: unknown[];
  apiKeys: unknown[];
  twoFactor: unknown;
  memberships: { roles: string[] }[];
  invitations: unknown[];
}

/** A call to better-auth's HTTP API as `who`, answering its JSON. */
async function asPerson(who: Person, path: string, body?: unknown) {
  const response =
    body === undefined
      ? await identity.get(`/api/auth/${path}`, who.cookie)
      : await identity.post(`/api/auth/${path}`, { body, cookie: who.cookie });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return (text ? JSON.parse(text) : null) as Record<string, string>;
}

/** The part as the gateway asks for it, for `who` in the session of `cookie`. */
async function exportedPart(who: Person, cookie: string) {
  const { sessionId } = await identity.getSession({ cookie });
  const token = await identity.signer.sign(
    { userId: who.id, sessionId, role: 'user', activeOrganizationId: null },
    'identity',
  );
  const { json } = await unary(identity.client, identity.client.exportUserData, {}, { token });
  return { json, part: JSON.parse(json) as IdentityPart };
}

async function withPasskey(who: Person, name: string) {
  const authenticator = createSoftwareAuthenticator(PUBLIC_BASE_URL);
  const options = await identity.get('/api/auth/passkey/generate-register-options', who.cookie);
  const cookie = cookiesAfter(options, who.cookie);
  const response = authenticator.register((await options.json()) as RegistrationOptions);
  const verified = await identity.post('/api/auth/passkey/verify-registration', { body: { response, name }, cookie });
  expect(verified.status).toBe(200);
}

/**
 * Turns two-factor on with the authenticator app; answers what the learner was shown once. Their session is
 * replaced by one that passed two-factor (its cookie is `who`'s from then on).
 */
async function withTwoFactor(who: Person) {
  const enabled = await asPerson(who, 'two-factor/enable', { password: PASSWORD });
  const { totpURI, backupCodes } = enabled as unknown as { totpURI: string; backupCodes: string[] };
  const verified = await identity.post('/api/auth/two-factor/verify-totp', {
    body: { code: totpCode(totpURI) },
    cookie: who.cookie,
  });
  expect(verified.status).toBe(200);
  who.cookie = cookieFrom(verified) || who.cookie;
  return { totpSecret: new URL(totpURI).searchParams.get('secret') ?? '', backupCodes };
}

/** An organization of `owner` with `who` as a member of it and of one of its teams. */
async function memberOfOrganizationAndTeam(owner: Person, who: Person) {
  const organization = await asPerson(owner, 'organization/create', {
    name: 'Riverside Language School',
    slug: `riverside-${Date.now().toString(36)}`,
  });
  await asPerson(owner, 'organization/invite-member', {
    email: who.email,
    role: 'member',
    organizationId: organization.id,
  });
  const invitationId =
    new URL(linkIn(await identity.nextMail(who.email, /invited you to/))).searchParams.get('invitationId') ?? '';
  await asPerson(who, 'organization/accept-invitation', { invitationId });
  const team = await asPerson(owner, 'organization/create-team', {
    name: 'Evening class',
    organizationId: organization.id,
  });
  await asPerson(owner, 'organization/add-team-member', { teamId: team.id, userId: who.id });
  return { organization, team };
}

describe("a learner's part of the data export", () => {
  it('holds their profile, sign-in methods, sessions, passkeys, API keys, two-factor and memberships', async () => {
    const ann = await identity.signedUpUser('exporting', 'Ann Exporter');
    const owner = await identity.signedUpUser('school-owner', 'Olga Owner');
    const phone = await identity.post('/api/auth/sign-in/email', {
      body: { email: ann.email, password: PASSWORD },
      headers: { 'user-agent': 'Phone browser (Ann)' },
    });
    expect(phone.status).toBe(200);
    await withPasskey(ann, 'Laptop');
    await withTwoFactor(ann);
    await asPerson(ann, 'api-key/create', { name: 'My script' });
    const { organization, team } = await memberOfOrganizationAndTeam(owner, ann);
    const otherSchool = await asPerson(owner, 'organization/create', {
      name: 'Hilltop Academy',
      slug: `hilltop-${Date.now().toString(36)}`,
    });
    await asPerson(owner, 'organization/invite-member', {
      email: ann.email,
      role: 'admin',
      organizationId: otherSchool.id,
    });

    const { part } = await exportedPart(ann, cookieFrom(phone));
    expect(part.profile).toMatchObject({
      id: ann.id,
      name: 'Ann Exporter',
      email: ann.email,
      emailVerified: true,
      role: 'user',
      banned: false,
    });
    expect(Date.parse(part.profile.createdAt)).toBeGreaterThan(0);
    expect(part.signInMethods).toEqual([expect.objectContaining({ provider: 'credential', hasPassword: true })]);
    expect(part.sessions).toHaveLength(2);
    expect(part.sessions.filter((session) => session.current)).toEqual([
      expect.objectContaining({ userAgent: 'Phone browser (Ann)', startedByAnAdministrator: false }),
    ]);
    expect(part.passkeys).toEqual([expect.objectContaining({ name: 'Laptop', deviceType: expect.any(String) })]);
    expect(part.twoFactor).toEqual({ enabled: true });
    expect(part.apiKeys).toEqual([
      expect.objectContaining({ name: 'My script', prefix: 'engram_', enabled: true, lastUsedAt: null }),
    ]);
    expect(part.memberships).toEqual([
      expect.objectContaining({
        organization: { id: organization.id, name: 'Riverside Language School', slug: organization.slug },
        roles: ['member'],
        teams: [expect.objectContaining({ id: team.id, name: 'Evening class' })],
      }),
    ]);
    expect(part.invitations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ organization: expect.objectContaining({ name: 'Hilltop Academy' }), role: 'admin' }),
        expect.objectContaining({ organization: expect.objectContaining({ id: organization.id }), status: 'accepted' }),
      ]),
    );
  });

  it('holds no token, password hash, key or secret that opens the account', async () => {
    const ann = await identity.signedUpUser('secretive');
    await withPasskey(ann, 'Phone');
    const { totpSecret, backupCodes } = await withTwoFactor(ann);
    const apiKey = await asPerson(ann, 'api-key/create', { name: 'Backup job' });

    const { json } = await exportedPart(ann, ann.cookie);
    const stored = await identity.db.user.findUniqueOrThrow({
      where: { id: ann.id },
      include: { sessions: true, accounts: true, twoFactors: true, apiKeys: true, passkeys: true },
    });
    const secrets = [
      apiKey.key,
      totpSecret,
      ...backupCodes,
      ...stored.sessions.map((session) => session.token),
      ...stored.accounts.map((account) => account.password),
      ...stored.twoFactors.flatMap((twoFactor) => [twoFactor.secret, twoFactor.backupCodes]),
      ...stored.apiKeys.map((key) => key.key),
      ...stored.passkeys.flatMap((passkey) => [passkey.publicKey, passkey.credentialID]),
    ];
    expect(secrets.length).toBeGreaterThan(15);
    for (const secret of secrets) {
      expect(secret).toBeTruthy();
      expect(json).not.toContain(secret as string);
    }
  });

  it("holds nothing of another user's, not even of the organization's owner", async () => {
    const ann = await identity.signedUpUser('member-only');
    const owner = await identity.signedUpUser('private-owner', 'Priscilla Private');
    await asPerson(owner, 'api-key/create', { name: 'Owner’s own key' });
    await memberOfOrganizationAndTeam(owner, ann);

    const { json, part } = await exportedPart(ann, ann.cookie);
    expect(part.memberships).toHaveLength(1);
    for (const theirs of [owner.id, owner.email, 'Priscilla Private', 'Owner’s own key']) {
      expect(json).not.toContain(theirs);
    }
    const ownersPart = (await exportedPart(owner, owner.cookie)).part;
    expect(ownersPart.profile.email).toBe(owner.email);
    expect(ownersPart.memberships.map((membership) => membership.roles)).toEqual([['owner']]);
  });
});
