// The auth client of the organization screens: the app's client plugins plus better-auth's organization
// client (teams, custom roles), loaded with those screens so the first page does not carry it. It shares
// the browser's session cookie with the app's client; the screens it serves change organizations, never
// who is signed in, so the app's session store stays right.
import type { BetterAuthClientPlugin } from 'better-auth/client';
import { organizationClient } from 'better-auth/client/plugins';
import { createAuthClient } from 'better-auth/react';
import { AUTH_CLIENT_OPTIONS, AUTH_CLIENT_PLUGINS } from './auth-client';
import { queryClient } from './query-client';

/** What the organization screens read of roles and who holds them (features/organization/roles/queries.ts). */
export const ORGANIZATION_ROLES_KEY = ['auth', 'organization-roles'] as const;

/** The calls that change who holds which role, or which roles there are. */
const ROLE_CHANGES = new Set([
  'invite-member',
  'cancel-invitation',
  'accept-invitation',
  'reject-invitation',
  'update-member-role',
  'remove-member',
  'leave',
  'create-role',
  'update-role',
  'delete-role',
]);

/**
 * After a change made through this client of who holds which role (an invitation sent or cancelled, a member's
 * role changed, a member removed) or of the roles themselves, the roles and who holds them are read again:
 * better-auth-ui's own dialogs make those changes. Only those calls: a question (has-permission is a POST too)
 * must not make the screens ask again, or they would ask forever.
 */
const rolesFollowChanges = {
  id: 'engram-roles-follow-changes',
  fetchPlugins: [
    {
      id: 'engram-roles-follow-changes',
      name: 'Roles follow organization changes',
      hooks: {
        onSuccess: (context) => {
          const path = new URL(String(context.request.url), window.location.origin).pathname;
          const call = /\/organization\/([^/]+)$/.exec(path)?.[1];
          if (call && ROLE_CHANGES.has(call)) void queryClient.invalidateQueries({ queryKey: ORGANIZATION_ROLES_KEY });
        },
      },
    },
  ],
} satisfies BetterAuthClientPlugin;

export const organizationAuthClient = createAuthClient({
  ...AUTH_CLIENT_OPTIONS,
  plugins: [
    ...AUTH_CLIENT_PLUGINS,
    // Permissions are decided by identity, so the client carries no copy of the roles.
    organizationClient({ teams: { enabled: true }, dynamicAccessControl: { enabled: true } }),
    rolesFollowChanges,
  ],
});
