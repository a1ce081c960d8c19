// The auth client of the organization screens: the app's client plugins plus better-auth's organization
// client (teams, custom roles), loaded with those screens so the first page does not carry it. It shares
// the browser's session cookie with the app's client; the screens it serves change organizations, never
// who is signed in, so the app's session store stays right.
import { organizationClient } from 'better-auth/client/plugins';
import { createAuthClient } from 'better-auth/react';
import { AUTH_CLIENT_OPTIONS, AUTH_CLIENT_PLUGINS } from './auth-client';

export const organizationAuthClient = createAuthClient({
  ...AUTH_CLIENT_OPTIONS,
  plugins: [
    ...AUTH_CLIENT_PLUGINS,
    // Permissions are decided by identity, so the client carries no copy of the roles.
    organizationClient({ teams: { enabled: true }, dynamicAccessControl: { enabled: true } }),
  ],
});
