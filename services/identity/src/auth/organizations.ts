// Organizations through better-auth's organization plugin (docs/product.md#roles-and-permissions): the roles owner,
// admin, member and guest with Engram's permission statements, custom roles per organization (dynamic access
// control, each with a label), teams, and invitations mailed in the inviter's language. Names, slugs and custom
// roles are checked here, with the limits and messages of docs/product.md#validation-rules.

import { ORGANIZATION_NAME_MAX_LENGTH, ORGANIZATION_SLUG_MAX_LENGTH } from '@engram/contracts/auth';
import {
  CREATOR_ROLE,
  CUSTOM_ROLE_LABEL_MAX_LENGTH,
  CUSTOM_ROLE_NAME_MESSAGE,
  CUSTOM_ROLE_NAME_PATTERN,
  INVITATION_EXPIRES_IN_SECONDS,
  INVITATION_LIMIT,
  MEMBERSHIP_LIMIT,
  ORGANIZATION_ERROR_CODES,
  ORGANIZATION_LIMIT,
  ORGANIZATION_MESSAGES,
  ORGANIZATION_SLUG_PATTERN,
  type OrganizationRole,
  PERMISSION_STATEMENTS,
  ROLE_PERMISSIONS,
  TEAM_LIMIT,
} from '@engram/contracts/organizations';
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';
import { organization } from 'better-auth/plugins';
import { createAccessControl } from 'better-auth/plugins/access';
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

const invalid = (message: string) => new APIError('BAD_REQUEST', { message });

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

/**
 * What better-auth's organization plugin leaves to the application: a custom role's name (its key) and label
 * (what people read, kept with the role) are checked before the endpoint runs, and an unknown role is refused in
 * words.
 */
export function organizationRules(): BetterAuthPlugin {
  return {
    id: 'engram-custom-role-labels',
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
            const name = ctx.path === '/organization/create-role' ? body?.role : body?.data?.roleName;
            if (name !== undefined && (typeof name !== 'string' || !CUSTOM_ROLE_NAME_PATTERN.test(name))) {
              throw invalid(CUSTOM_ROLE_NAME_MESSAGE);
            }
            const label = body?.additionalFields?.label ?? body?.data?.label;
            if (label === undefined) return;
            if (typeof label !== 'string' || label.trim() === '' || label.length > CUSTOM_ROLE_LABEL_MAX_LENGTH) {
              throw invalid(`A role label must be 1 to ${CUSTOM_ROLE_LABEL_MAX_LENGTH} characters.`);
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
      ],
    },
  };
}

export function organizations(publicBaseUrl: string, send: ReturnType<typeof mailSenders>) {
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
    sendInvitationEmail: (data, request) =>
      send.invitation(data, (id) => invitationUrl(publicBaseUrl, id), request as Request | undefined),
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
