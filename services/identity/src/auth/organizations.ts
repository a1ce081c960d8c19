// Organizations through better-auth's organization plugin (docs/product.md#roles-and-permissions): the roles owner,
// admin, member and guest with Engram's permission statements, custom roles per organization (dynamic access
// control, each with a label), teams, and invitations mailed in the inviter's language. Names, slugs and custom
// roles are checked here, with the limits and messages of docs/product.md#validation-rules.

import { ORGANIZATION_NAME_MAX_LENGTH, ORGANIZATION_SLUG_MAX_LENGTH } from '@engram/contracts/auth';
import {
  CREATOR_ROLE,
  CUSTOM_ROLE_ERROR_CODES,
  CUSTOM_ROLE_LABEL_MESSAGE,
  CUSTOM_ROLE_NAME_MESSAGE,
  customRoleProblems,
  INVITATION_EXPIRES_IN_SECONDS,
  INVITATION_LIMIT,
  MEMBERSHIP_LIMIT,
  ORGANIZATION_ERROR_CODES,
  ORGANIZATION_LIMIT,
  ORGANIZATION_MESSAGES,
  ORGANIZATION_SLUG_PATTERN,
  type OrganizationRole,
  PERMISSION_STATEMENTS,
  ROLE_OFFERED_MESSAGE,
  ROLE_PERMISSIONS,
  TEAM_LIMIT,
} from '@engram/contracts/organizations';
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthEndpoint, createAuthMiddleware, isAPIError, sessionMiddleware } from 'better-auth/api';
import { organization } from 'better-auth/plugins';
import { createAccessControl } from 'better-auth/plugins/access';
import { z } from 'zod';
import type { mailSenders } from './mail-senders.js';

export const accessControl = createAccessControl(PERMISSION_STATEMENTS);

type RoleStatements = Parameters<typeof accessControl.newRole>[0];
const roleOf = (role: OrganizationRole) => accessControl.newRole(ROLE_PERMISSIONS[role] as RoleStatements);

export const organizationRoles = {
  owner: roleOf('owner'),
  admin: roleOf('admin'),
  member: roleOf('member'),
  guest: roleOf('guest'),
};

/** The web app's invitation page (the accept-invitation view, which needs invitationId). */
export const invitationUrl = (publicBaseUrl: string, invitationId: string) =>
  `${publicBaseUrl}/auth/accept-invitation?invitationId=${encodeURIComponent(invitationId)}`;

/** A broken rule of a name or slug, answered with its code and message. */
const refused = (rule: keyof typeof ORGANIZATION_ERROR_CODES) =>
  new APIError('BAD_REQUEST', { code: ORGANIZATION_ERROR_CODES[rule], message: ORGANIZATION_MESSAGES[rule] });

/** Name at most 32 characters, slug required, at most 48, and fit for a URL. */
function checkOrganization(fields: { name?: unknown; slug?: unknown }, creating: boolean): void {
  if (typeof fields.name === 'string' && fields.name.trim().length > ORGANIZATION_NAME_MAX_LENGTH) {
    throw refused('nameTooLong');
  }
  if (fields.slug === undefined && !creating) return;
  if (typeof fields.slug !== 'string' || fields.slug.trim() === '') throw refused('slugRequired');
  if (fields.slug.length > ORGANIZATION_SLUG_MAX_LENGTH) throw refused('slugTooLong');
  if (!ORGANIZATION_SLUG_PATTERN.test(fields.slug)) throw refused('slugInvalid');
}

const ROLE_PATHS = new Set(['/organization/create-role', '/organization/update-role']);

/** A custom role of an organization: its name (the key members and invitations hold) and its label. */
export interface RoleLabel {
  role: string;
  label: string;
}

type Adapter = {
  findOne<T>(query: {
    model: string;
    where: { field: string; value: unknown; operator?: 'eq' | 'in' }[];
  }): Promise<T | null>;
  findMany<T>(query: {
    model: string;
    where: { field: string; value: unknown; operator?: 'eq' | 'in' }[];
  }): Promise<T[]>;
};

/** The labels of the custom roles of these organizations, by organization and then role name. */
async function labelsOf(adapter: Adapter, organizationIds: string[]): Promise<Map<string, Map<string, string>>> {
  const byOrganization = new Map<string, Map<string, string>>();
  if (organizationIds.length === 0) return byOrganization;
  const rows = await adapter.findMany<{ organizationId: string; role: string; label: string | null }>({
    model: 'organizationRole',
    where: [{ field: 'organizationId', value: [...new Set(organizationIds)], operator: 'in' }],
  });
  for (const row of rows) {
    const labels = byOrganization.get(row.organizationId) ?? new Map<string, string>();
    labels.set(row.role, row.label ?? row.role);
    byOrganization.set(row.organizationId, labels);
  }
  return byOrganization;
}

/**
 * What better-auth's organization plugin leaves to the application:
 * - a custom role's name (its key) and label (what people read, kept with the role) are checked before the
 *   endpoint runs, and an unknown role is refused in words;
 * - a custom role offered in a pending invitation is not deleted (better-auth refuses only one members hold);
 * - every member may read the labels of the organization's custom roles (`GET /organization/role-labels`), which
 *   the screens show beside members and invitations: better-auth lists roles, with their permissions, only to
 *   those who may manage them;
 * - the invitations a user is offered carry their role's label (`roleLabel`, null for a built-in role, which the
 *   app names in the reader's language): the invited are not members yet.
 */
export function organizationRules(): BetterAuthPlugin {
  return {
    id: 'engram-custom-role-labels',
    endpoints: {
      roleLabels: createAuthEndpoint(
        '/organization/role-labels',
        { method: 'GET', query: z.object({ organizationId: z.string().min(1) }), use: [sessionMiddleware] },
        async (ctx) => {
          const adapter = ctx.context.adapter as unknown as Adapter;
          const { organizationId } = ctx.query;
          const member = await adapter.findOne({
            model: 'member',
            where: [
              { field: 'organizationId', value: organizationId },
              { field: 'userId', value: ctx.context.session.user.id },
            ],
          });
          if (!member) {
            throw new APIError('FORBIDDEN', {
              code: 'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
              message: 'User is not a member of the organization',
            });
          }
          const labels = (await labelsOf(adapter, [organizationId])).get(organizationId) ?? new Map();
          const answer: RoleLabel[] = [...labels].map(([role, label]) => ({ role, label }));
          return ctx.json(answer.sort((a, b) => a.label.localeCompare(b.label)));
        },
      ),
    },
    hooks: {
      before: [
        {
          matcher: (ctx) => ROLE_PATHS.has(ctx.path ?? ''),
          handler: createAuthMiddleware(async (ctx) => {
            const body = ctx.body as
              | {
                  role?: unknown;
                  additionalFields?: { label?: unknown };
                  data?: { label?: unknown; roleName?: unknown };
                }
              | undefined;
            // create-role names the role `role`; update-role renames it with `data.roleName`.
            const role = ctx.path === '/organization/create-role' ? body?.role : body?.data?.roleName;
            const problems = customRoleProblems({ role, label: body?.additionalFields?.label ?? body?.data?.label });
            if (problems.role) {
              throw new APIError('BAD_REQUEST', {
                code: CUSTOM_ROLE_ERROR_CODES.nameInvalid,
                message: CUSTOM_ROLE_NAME_MESSAGE,
              });
            }
            if (problems.label) {
              throw new APIError('BAD_REQUEST', {
                code: CUSTOM_ROLE_ERROR_CODES.labelInvalid,
                message: CUSTOM_ROLE_LABEL_MESSAGE,
              });
            }
          }),
        },
        {
          matcher: (ctx) => ctx.path === '/organization/delete-role',
          handler: createAuthMiddleware(async (ctx) => {
            const body = ctx.body as { organizationId?: unknown; roleName?: unknown; roleId?: unknown } | undefined;
            const session = ctx.context.session as { session?: { activeOrganizationId?: string | null } } | null;
            const organizationId =
              typeof body?.organizationId === 'string' ? body.organizationId : session?.session?.activeOrganizationId;
            if (!organizationId) return;
            const adapter = ctx.context.adapter as unknown as Adapter;
            let role = typeof body?.roleName === 'string' ? body.roleName : undefined;
            if (role === undefined && typeof body?.roleId === 'string') {
              const row = await adapter.findOne<{ role: string }>({
                model: 'organizationRole',
                where: [
                  { field: 'id', value: body.roleId },
                  { field: 'organizationId', value: organizationId },
                ],
              });
              role = row?.role;
            }
            if (role === undefined) return;
            const offered = await adapter.findMany<{ expiresAt: Date | string }>({
              model: 'invitation',
              where: [
                { field: 'organizationId', value: organizationId },
                { field: 'role', value: role },
                { field: 'status', value: 'pending' },
              ],
            });
            if (offered.some((invitation) => new Date(invitation.expiresAt).getTime() > Date.now())) {
              throw new APIError('BAD_REQUEST', {
                code: CUSTOM_ROLE_ERROR_CODES.offered,
                message: ROLE_OFFERED_MESSAGE,
              });
            }
          }),
        },
      ],
      after: [
        {
          // better-auth words an unknown role on invite or role change as "ROLE_NOT_FOUND: <names>",
          // without a code; answered like its other errors, with the code the web app's catalogue knows.
          matcher: (ctx) => {
            const returned = ctx.context.returned;
            return (
              isAPIError(returned) &&
              /^ROLE_NOT_FOUND: /.test(String((returned.body as { message?: unknown })?.message))
            );
          },
          handler: createAuthMiddleware(async (ctx) => {
            const message = String(((ctx.context.returned as APIError).body as { message?: unknown }).message);
            throw new APIError('BAD_REQUEST', {
              code: 'ROLE_NOT_FOUND',
              message: `Role not found: ${message.slice('ROLE_NOT_FOUND: '.length)}`,
            });
          }),
        },
        {
          matcher: (ctx) => ctx.path === '/organization/list-user-invitations',
          handler: createAuthMiddleware(async (ctx) => {
            const invitations = ctx.context.returned;
            if (!Array.isArray(invitations)) return;
            const listed = invitations as { organizationId: string; role: string }[];
            const adapter = ctx.context.adapter as unknown as Adapter;
            const labels = await labelsOf(
              adapter,
              listed.map((invitation) => invitation.organizationId),
            );
            return ctx.json(
              listed.map((invitation) => ({
                ...invitation,
                roleLabel: labels.get(invitation.organizationId)?.get(invitation.role) ?? null,
              })),
            );
          }),
        },
      ],
    },
  };
}

/** The label of an organization's custom role, null for a built-in one (or one no longer there). */
export type CustomRoleLabel = (organizationId: string, role: string) => Promise<string | null>;

export function organizations(
  publicBaseUrl: string,
  send: ReturnType<typeof mailSenders>,
  customRoleLabel: CustomRoleLabel,
) {
  return organization({
    ac: accessControl,
    roles: organizationRoles,
    creatorRole: CREATOR_ROLE,
    organizationLimit: ORGANIZATION_LIMIT,
    membershipLimit: MEMBERSHIP_LIMIT,
    invitationLimit: INVITATION_LIMIT,
    invitationExpiresIn: INVITATION_EXPIRES_IN_SECONDS,
    // Inviting the same address again replaces the pending invitation rather than piling them up.
    cancelPendingInvitationsOnReInvite: true,
    // Only someone who proved they own the invited address may accept (only the recipient,
    // docs/product.md#states-and-transitions).
    requireEmailVerificationOnInvitation: true,
    sendInvitationEmail: async (data, request) => {
      const role = { name: data.role, label: await customRoleLabel(data.organization.id, data.role) };
      await send.invitation(
        { ...data, role },
        (id) => invitationUrl(publicBaseUrl, id),
        request as Request | undefined,
      );
    },
    teams: { enabled: true, maximumTeams: TEAM_LIMIT, allowRemovingAllTeams: true },
    dynamicAccessControl: { enabled: true, maximumRolesPerOrganization: 20 },
    schema: {
      organizationRole: { additionalFields: { label: { type: 'string', required: false } } },
    },
    organizationHooks: {
      beforeCreateOrganization: async ({ organization: fields }) => {
        checkOrganization(fields, true);
        return { data: { ...fields, name: fields.name?.trim() } };
      },
      beforeUpdateOrganization: async ({ organization: fields }) => {
        checkOrganization(fields, false);
        return { data: fields };
      },
    },
  });
}
