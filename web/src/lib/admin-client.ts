// The auth client of the admin screens and the impersonation banner: the app's client plugins plus better-auth's
// admin client (its access control and error texts), loaded with them so the first page does not carry it. It
// shares the browser's session cookie with the app's client; starting or ending an impersonation is followed by a
// fresh page load, so the app's session store never shows the session before.
import { adminClient } from 'better-auth/client/plugins';
import { createAuthClient } from 'better-auth/react';
import { AUTH_CLIENT_OPTIONS, AUTH_CLIENT_PLUGINS } from './auth-client';

export const adminAuthClient = createAuthClient({
  ...AUTH_CLIENT_OPTIONS,
  plugins: [...AUTH_CLIENT_PLUGINS, adminClient()],
});
