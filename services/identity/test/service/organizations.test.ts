// Organizations on better-auth's organization plugin, through identity's real HTTP server and gRPC API: creating
// one (the name and slug rules of docs/product.md#validation-rules), inviting by mail, accepting (only the
// recipient, only while pending and unexpired), roles and custom roles, teams, the only owner who cannot leave, and
// a user of another organization refused everywhere (role changes across organizations included). Every change of
// membership reaches the outbox as an event, written by triggers.
import { EVENT_CATALOGUE, type EventDefinition } from '@engram/contracts/events';
import {
  CUSTOM_ROLE_LABEL_MESSAGE,
  CUSTOM_ROLE_NAME_MESSAGE,
  ORGANIZATION_ERROR_CODES,
  ORGANIZATION_MESSAGES,
  ROLE_OFFERED_MESSAGE,
} from '@engram/contracts/organizations';
import { unary } from '@engram/kit/grpc/client';
import { EventEnvelope } from '@engram/proto/events/v1/envelope';
import { grpcFailure } from '@engram/testkit/grpc';
import { linkIn } from '@engram/testkit/mailbox';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IdentityHarness, startIdentityHarness, uniqueEmail } from '../harness.js';

let identity: IdentityHarness;

beforeAll(async () => {
  identity = await startIdentityHarness();
});
afterAll(() => identity?.stop());

type Person = Awaited<ReturnType<IdentityHarness['signedUpUser']>>;

const person = (label: string) => identity.signedUpUser(label, `${label} Person`);

/** A call to /api/auth/organization/<path> as `who`; resolves to the status and the JSON answer. */
async function org(who: Person, path: string, body?: unknown) {
  const response =
    body === undefined
      ? await identity.get(`/api/auth/organization/${path}`, who.cookie)
      : await identity.post(`/api/auth/organization/${path}`, { body, cookie: who.cookie });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : null) as Record<string, any> };
}

let slugs = 0;
const uniqueSlug = (label: string) => `${label}-${Date.now().toString(36)}-${++slugs}`;

async function createOrganization(owner: Person, label: string) {
  const created = await org(owner, 'create', { name: `${label} Academy`, slug: uniqueSlug(label) });
  expect(created.status).toBe(200);
  return created.json as { id: string; slug: string; name: string };
}

/** Invites `email` into the organization and returns the invitation id the mail links to. */
async function invite(inviter: Person, organizationId: string, email: string, role = 'member') {
  const invited = await org(inviter, 'invite-member', { email, role, organizationId });
  expect(invited.status).toBe(200);
  const mail = await identity.nextMail(email, /invited you to/);
  const link = new URL(linkIn(mail));
  expect(link.pathname).toBe('/auth/accept-invitation');
  return link.searchParams.get('invitationId') ?? '';
}

/** An organization with an owner and a member who accepted an invitation. */
async function organizationWithMember(label: string) {
  const owner = await person(`${label}-owner`);
  const member = await person(`${label}-member`);
  const organization = await createOrganization(owner, label);
  const invitationId = await invite(owner, organization.id, member.email);
  expect((await org(member, 'accept-invitation', { invitationId })).status).toBe(200);
  const { id: memberId } = await identity.db.member.findUniqueOrThrow({
    where: { organizationId_userId: { organizationId: organization.id, userId: member.id } },
  });
  return { owner, member, organization, memberId };
}

/** gRPC as the gateway calls it for `who`. */
async function asUser(who: Person) {
  const token = await identity.signer.sign(
    { userId: who.id, sessionId: 'test', role: 'user', activeOrganizationId: null },
    'identity',
  );
  return {
    getMembership: (organizationId: string) =>
      unary(identity.client, identity.client.getMembership, { organizationId }, { token }),
    checkPermission: (organizationId: string, permissions: { resource: string; actions: string[] }[]) =>
      unary(identity.client, identity.client.checkPermission, { organizationId, permissions }, { token }),
  };
}

const CATALOGUE = EVENT_CATALOGUE as EventDefinition<Record<string, unknown>>[];

/** The outbox's membership events of one organization, decoded with the generated codecs. */
async function eventsOf(organizationId: string) {
  const rows = await identity.db.outboxEvent.findMany({ orderBy: { seq: 'asc' } });
  return rows
    .map((row) => {
      const envelope = EventEnvelope.decode(row.payload);
      const event = CATALOGUE.find((entry) => entry.subject === row.type);
      if (!event) throw new Error(`not in the catalogue: ${row.type}`);
      const payload = event.message.decode(envelope.payload);
      expect(Buffer.from(event.message.encode(payload as never).finish())).toEqual(Buffer.from(envelope.payload));
      return { subject: row.type, payload };
    })
    .filter(({ payload }) => payload.organizationId === organizationId);
}

describe('creating an organization', () => {
  it('makes its creator the owner, and keeps the limits on the name and slug', async () => {
    const owner = await person('creator');
    const organization = await createOrganization(owner, 'creator');
    await expect((await asUser(owner)).getMembership(organization.id)).resolves.toMatchObject({
      organizationName: 'creator Academy',
      organizationSlug: organization.slug,
      roles: ['owner'],
    });

    const long = await org(owner, 'create', { name: 'x'.repeat(33), slug: uniqueSlug('long') });
    const refusal = (rule: keyof typeof ORGANIZATION_ERROR_CODES) => ({
      status: 400,
      json: { code: ORGANIZATION_ERROR_CODES[rule], message: ORGANIZATION_MESSAGES[rule] },
    });
    expect(long).toMatchObject(refusal('nameTooLong'));
    const longSlug = await org(owner, 'create', { name: 'Fine', slug: 'a'.repeat(49) });
    expect(longSlug).toMatchObject(refusal('slugTooLong'));
    const badSlug = await org(owner, 'create', { name: 'Fine', slug: 'Not A Slug' });
    expect(badSlug).toMatchObject(refusal('slugInvalid'));
    const taken = await org(owner, 'create', { name: 'Again', slug: organization.slug });
    expect(taken).toMatchObject({ status: 400, json: { code: 'ORGANIZATION_ALREADY_EXISTS' } });
  });
});

describe('invitations', () => {
  it('mails the invited address a link to the invitation page, which its recipient accepts', async () => {
    const { owner, member, organization } = await organizationWithMember('welcome');
    const mail = (await identity.mailbox(member.email)).find((m) => /invited you to/.test(m.subject));
    expect(mail?.subject).toBe(`welcome-owner Person invited you to welcome Academy on Engram`);
    expect(mail?.text).toContain('on Engram as a member.');
    const members = await org(owner, `list-members?organizationId=${organization.id}`);
    expect(members.json.members.map((m: { user: { email: string } }) => m.user.email).sort()).toEqual(
      [owner.email, member.email].sort(),
    );
    expect(await asUser(member).then((api) => api.getMembership(organization.id))).toMatchObject({ roles: ['member'] });
  });

  it('lets only the recipient accept, only while pending and before it expires', async () => {
    const owner = await person('inviter');
    const invitee = await person('invitee');
    const stranger = await person('stranger');
    const organization = await createOrganization(owner, 'strict');

    const invitationId = await invite(owner, organization.id, invitee.email);
    const notYours = await org(stranger, 'accept-invitation', { invitationId });
    expect(notYours).toMatchObject({ status: 403, json: { code: 'YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION' } });

    await identity.db.invitation.update({
      where: { id: invitationId },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const expired = await org(invitee, 'accept-invitation', { invitationId });
    expect(expired).toMatchObject({ status: 400, json: { code: 'INVITATION_NOT_FOUND' } });
    expect(await identity.db.member.count({ where: { organizationId: organization.id } })).toBe(1);

    const again = await invite(owner, organization.id, invitee.email);
    expect((await org(invitee, 'reject-invitation', { invitationId: again })).status).toBe(200);
    const rejected = await org(invitee, 'accept-invitation', { invitationId: again });
    expect(rejected).toMatchObject({ status: 400, json: { code: 'INVITATION_NOT_FOUND' } });
    expect(await identity.db.invitation.findUniqueOrThrow({ where: { id: again } })).toMatchObject({
      status: 'rejected',
    });
  });

  it('refuses a role that does not exist', async () => {
    const owner = await person('typo');
    const organization = await createOrganization(owner, 'typo');
    const invited = await org(owner, 'invite-member', {
      email: uniqueEmail('nobody'),
      role: 'overlord',
      organizationId: organization.id,
    });
    expect(invited.status).toBe(400);
    expect(invited.json).toMatchObject({ code: 'ROLE_NOT_FOUND', message: 'Role not found: overlord' });
    expect(await identity.db.invitation.count({ where: { organizationId: organization.id } })).toBe(0);
  });
});

describe('owners', () => {
  it('cannot leave when they are the only owner', async () => {
    const { owner, organization } = await organizationWithMember('lonely');
    const left = await org(owner, 'leave', { organizationId: organization.id });
    expect(left).toMatchObject({ status: 400, json: { code: 'YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER' } });
    await expect((await asUser(owner)).getMembership(organization.id)).resolves.toMatchObject({ roles: ['owner'] });
  });
});

describe('a user of another organization', () => {
  it('is refused by every organization endpoint, role changes across organizations included', async () => {
    const a = await organizationWithMember('alpha');
    const b = await organizationWithMember('beta');
    const intruder = b.owner;
    const target = a.organization.id;

    // B's owner names A's member while pointing at B, and at A: both refused, the role unchanged.
    for (const organizationId of [b.organization.id, target]) {
      const changed = await org(intruder, 'update-member-role', {
        memberId: a.memberId,
        role: 'admin',
        organizationId,
      });
      expect(changed.status).toBeGreaterThanOrEqual(400);
    }
    const removed = await org(intruder, 'remove-member', {
      memberIdOrEmail: a.memberId,
      organizationId: b.organization.id,
    });
    expect(removed.status).toBeGreaterThanOrEqual(400);
    expect(await identity.db.member.findUniqueOrThrow({ where: { id: a.memberId } })).toMatchObject({ role: 'member' });

    const refusals = [
      await org(intruder, `list-members?organizationId=${target}`),
      await org(intruder, `list-invitations?organizationId=${target}`),
      await org(intruder, `get-full-organization?organizationId=${target}`),
      await org(intruder, 'invite-member', { email: uniqueEmail('x'), role: 'member', organizationId: target }),
      await org(intruder, 'update', { organizationId: target, data: { name: 'Taken over' } }),
      await org(intruder, 'delete', { organizationId: target }),
      await org(intruder, 'create-team', { name: 'Intruders', organizationId: target }),
      await org(intruder, 'remove-member', { memberIdOrEmail: a.memberId, organizationId: target }),
      await org(intruder, 'set-active', { organizationId: target }),
    ];
    for (const refusal of refusals) expect(refusal.status, JSON.stringify(refusal.json)).toBeGreaterThanOrEqual(400);
    const permission = await org(intruder, 'has-permission', {
      organizationId: target,
      permissions: { member: ['delete'] },
    });
    expect(permission.json?.success ?? false).toBe(false);

    expect(await identity.db.organization.findUniqueOrThrow({ where: { id: target } })).toMatchObject({
      name: 'alpha Academy',
    });
    expect(await identity.db.member.count({ where: { organizationId: target } })).toBe(2);
    const api = await asUser(intruder);
    expect((await grpcFailure(api.getMembership(target))).code).toBe(status.NOT_FOUND);
    expect(await api.checkPermission(target, [{ resource: 'progress', actions: ['read'] }])).toEqual({
      allowed: false,
      roles: [],
    });
  });
});

describe('roles and permissions', () => {
  it('answers what each role may do, custom roles with a label included, over HTTP and gRPC alike', async () => {
    const { owner, member, organization, memberId } = await organizationWithMember('roles');
    const memberApi = await asUser(member);
    const ownerApi = await asUser(owner);
    const progress = [{ resource: 'progress', actions: ['read'] }];
    expect(await ownerApi.checkPermission(organization.id, progress)).toEqual({ allowed: true, roles: ['owner'] });
    expect(await memberApi.checkPermission(organization.id, progress)).toEqual({ allowed: false, roles: ['member'] });

    const created = await org(owner, 'create-role', {
      organizationId: organization.id,
      role: 'coach',
      permission: { progress: ['read'], deck: ['create'] },
      additionalFields: { label: 'Coach' },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const tooLong = await org(owner, 'create-role', {
      organizationId: organization.id,
      role: 'mentor',
      permission: { progress: ['read'] },
      additionalFields: { label: 'x'.repeat(33) },
    });
    expect(tooLong).toMatchObject({
      status: 400,
      json: { code: 'ROLE_LABEL_INVALID', message: CUSTOM_ROLE_LABEL_MESSAGE },
    });
    for (const role of ['Coach', '1st-coach', 'coach!', `c${'o'.repeat(32)}`]) {
      const badName = await org(owner, 'create-role', {
        organizationId: organization.id,
        role,
        permission: { progress: ['read'] },
        additionalFields: { label: 'Coach' },
      });
      expect(badName, role).toMatchObject({
        status: 400,
        json: { code: 'ROLE_NAME_INVALID', message: CUSTOM_ROLE_NAME_MESSAGE },
      });
    }
    const renamedBadly = await org(owner, 'update-role', {
      organizationId: organization.id,
      roleName: 'coach',
      data: { roleName: 'Head Coach' },
    });
    expect(renamedBadly).toMatchObject({ status: 400, json: { message: CUSTOM_ROLE_NAME_MESSAGE } });

    const promoted = await org(owner, 'update-member-role', {
      memberId,
      role: 'coach',
      organizationId: organization.id,
    });
    expect(promoted.status, JSON.stringify(promoted.json)).toBe(200);
    expect(await memberApi.checkPermission(organization.id, progress)).toEqual({ allowed: true, roles: ['coach'] });
    expect(
      await memberApi.checkPermission(organization.id, [{ resource: 'organization', actions: ['delete'] }]),
    ).toMatchObject({ allowed: false });
    const viaHttp = await org(member, 'has-permission', {
      organizationId: organization.id,
      permissions: { deck: ['create'] },
    });
    expect(viaHttp.json).toMatchObject({ success: true });
    expect(await identity.db.organizationRole.findFirstOrThrow({ where: { role: 'coach' } })).toMatchObject({
      label: 'Coach',
    });
  });

  it("shows every member the custom roles' labels, and the invited their role's label, in their mail too", async () => {
    const { owner, member, organization } = await organizationWithMember('labels');
    const stranger = await person('labels-stranger');
    for (const [role, label] of [
      ['tutor', 'Tutor'],
      ['coach', 'Head coach'],
    ]) {
      const created = await org(owner, 'create-role', {
        organizationId: organization.id,
        role,
        permission: { progress: ['read'] },
        additionalFields: { label },
      });
      expect(created.status, JSON.stringify(created.json)).toBe(200);
    }
    // A member may not list the roles with their permissions (better-auth keeps that to who may manage them)...
    expect((await org(member, `list-roles?organizationId=${organization.id}`)).status).toBe(403);
    // ...but reads their labels, sorted by label; someone of another organization reads nothing.
    const labels = await org(member, `role-labels?organizationId=${organization.id}`);
    expect(labels).toMatchObject({
      status: 200,
      json: [
        { role: 'coach', label: 'Head coach' },
        { role: 'tutor', label: 'Tutor' },
      ],
    });
    expect(await org(stranger, `role-labels?organizationId=${organization.id}`)).toMatchObject({
      status: 403,
      json: { code: 'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION' },
    });

    // Invited as a custom role: the mail and the invitations the invited person lists say its label.
    const invitee = await person('labels-invitee');
    await invite(owner, organization.id, invitee.email, 'coach');
    const mail = (await identity.mailbox(invitee.email)).find((m) => /invited you to/.test(m.subject));
    expect(mail?.text).toContain('on Engram with the role “Head coach”.');
    const other = await createOrganization(owner, 'labels-other');
    await invite(owner, other.id, invitee.email, 'guest');
    const listed = await org(invitee, 'list-user-invitations');
    expect(listed.status).toBe(200);
    const byOrganization = new Map(
      (listed.json as unknown as { organizationId: string; role: string; roleLabel: string | null }[]).map((i) => [
        i.organizationId,
        { role: i.role, roleLabel: i.roleLabel },
      ]),
    );
    expect(byOrganization.get(organization.id)).toEqual({ role: 'coach', roleLabel: 'Head coach' });
    // A built-in role has no label of the organization's: the app names it in the reader's language.
    expect(byOrganization.get(other.id)).toEqual({ role: 'guest', roleLabel: null });
  });

  it('says a built-in role in the invited person’s language', async () => {
    const owner = await person('idioma');
    const organization = await createOrganization(owner, 'idioma');
    const invitee = uniqueEmail('convidada');
    const invited = await identity.post('/api/auth/organization/invite-member', {
      body: { email: invitee, role: 'guest', organizationId: organization.id },
      cookie: owner.cookie,
      headers: { 'accept-language': 'pt-BR,pt;q=0.9' },
    });
    expect(invited.status).toBe(200);
    const [mail] = await identity.mailbox(invitee);
    expect(mail?.text).toContain('no Engram como convidado.');
  });

  it('keeps a custom role that members hold or a pending invitation offers, and deletes it once free', async () => {
    const { owner, organization, memberId } = await organizationWithMember('keep');
    const created = await org(owner, 'create-role', {
      organizationId: organization.id,
      role: 'reader',
      permission: {},
      additionalFields: { label: 'Reader' },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const remove = () => org(owner, 'delete-role', { organizationId: organization.id, roleName: 'reader' });

    await org(owner, 'update-member-role', { memberId, role: 'reader', organizationId: organization.id });
    expect(await remove()).toMatchObject({ status: 400, json: { code: 'ROLE_IS_ASSIGNED_TO_MEMBERS' } });
    await org(owner, 'update-member-role', { memberId, role: 'member', organizationId: organization.id });

    const invitationId = await invite(owner, organization.id, uniqueEmail('offered'), 'reader');
    expect(await remove()).toMatchObject({
      status: 400,
      json: { code: 'ROLE_IS_OFFERED_IN_INVITATIONS', message: ROLE_OFFERED_MESSAGE },
    });
    // Also when named by its id.
    const role = await identity.db.organizationRole.findFirstOrThrow({
      where: { organizationId: organization.id, role: 'reader' },
    });
    expect(await org(owner, 'delete-role', { organizationId: organization.id, roleId: role.id })).toMatchObject({
      status: 400,
      json: { code: 'ROLE_IS_OFFERED_IN_INVITATIONS' },
    });
    expect(await identity.db.organizationRole.count({ where: { organizationId: organization.id } })).toBe(1);

    expect((await org(owner, 'cancel-invitation', { invitationId })).status).toBe(200);
    expect((await remove()).status).toBe(200);
    expect(await identity.db.organizationRole.count({ where: { organizationId: organization.id } })).toBe(0);
  });

  it('puts the member in their teams', async () => {
    const { owner, member, organization } = await organizationWithMember('teams');
    const team = await org(owner, 'create-team', { name: 'Evening class', organizationId: organization.id });
    expect(team.status, JSON.stringify(team.json)).toBe(200);
    const added = await org(owner, 'add-team-member', { teamId: team.json.id, userId: member.id });
    expect(added.status, JSON.stringify(added.json)).toBe(200);
    expect(await (await asUser(member)).getMembership(organization.id)).toMatchObject({ teamIds: [team.json.id] });
  });
});

describe('membership events', () => {
  it('are written by triggers for every change, and the organization deleted last', async () => {
    const { owner, member, organization, memberId } = await organizationWithMember('events');
    const team = await org(owner, 'create-team', { name: 'Morning', organizationId: organization.id });
    await org(owner, 'add-team-member', { teamId: team.json.id, userId: member.id });
    await org(owner, 'update-member-role', { memberId, role: 'admin', organizationId: organization.id });
    await org(owner, 'remove-member', { memberIdOrEmail: memberId, organizationId: organization.id });
    expect((await org(owner, 'delete', { organizationId: organization.id })).status).toBe(200);

    const events = await eventsOf(organization.id);
    const subjects = events.map((event) => event.subject);
    // Teams are on: the creator starts in the organization's first team. Removing a member takes them out
    // of their teams too; deleting the organization removes the rest (their team rows go with their teams,
    // so those events name no organization and are not among these).
    expect(subjects).toEqual([
      'engram.identity.member.added',
      'engram.identity.team-member.added',
      'engram.identity.member.added',
      'engram.identity.team-member.added',
      'engram.identity.member.role-changed',
      'engram.identity.member.removed',
      'engram.identity.team-member.removed',
      'engram.identity.member.removed',
      'engram.identity.organization.deleted',
    ]);
    expect(events[2]?.payload).toEqual({
      organizationId: organization.id,
      userId: member.id,
      memberId,
      role: 'member',
    });
    expect(events[4]?.payload).toMatchObject({ memberId, role: 'admin', previousRole: 'member' });
    expect(events[6]?.payload).toEqual({
      teamId: team.json.id,
      userId: member.id,
      organizationId: organization.id,
    });
  });
});
