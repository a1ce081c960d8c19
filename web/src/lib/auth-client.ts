// The better-auth client: the one place the SPA talks to the gateway's /api/auth endpoints from. Its
// plugins match identity's (username, magic link, email code, two-factor, passkeys, API keys, several
// accounts per device; admin in admin-client.ts, organizations in organization-client.ts), so the auth screens
// call the standard endpoints, and the user fields the guards read (onboarding, role, ban) are typed. Generic
// OAuth has no 1.7 client plugin: the screens post to /sign-in/oauth2 themselves (auth-ui/provider.tsx).
import { apiKeyClient } from '@better-auth/api-key/client';
import { passkeyClient } from '@better-auth/passkey/client';
import { BANNED_USER_CODE } from '@engram/contracts/auth';
import {
  emailOTPClient,
  inferAdditionalFields,
  magicLinkClient,
  multiSessionClient,
  twoFactorClient,
  usernameClient,
} from 'better-auth/client/plugins';
import { createAuthClient } from 'better-auth/react';
import { AUTH_FETCH_RETRY } from './auth-retry';

/**
 * identity refuses a banned user's every call but reading the session (BANNED_USER): the session is read
 * again, and the protected layout then sends the user to /suspended (also for the organization screens' client).
 */
function onAuthError({ error }: { error: unknown }): void {
  if ((error as { code?: unknown }).code === BANNED_USER_CODE) authClient.$store.notify('$sessionSignal');
}

/** Where the client talks to, and how it retries; shared with the organization screens' client. */
export const AUTH_CLIENT_OPTIONS = {
  // An absolute origin keeps better-auth from guessing one from build-time environment variables.
  baseURL: window.location.origin,
  basePath: '/api/auth',
  fetchOptions: { retry: AUTH_FETCH_RETRY, onError: onAuthError },
};

export const AUTH_CLIENT_PLUGINS = [
  usernameClient(),
  magicLinkClient(),
  emailOTPClient(),
  twoFactorClient(),
  passkeyClient(),
  apiKeyClient(),
  multiSessionClient(),
  inferAdditionalFields({
    user: {
      // Set only by settings.completeOnboarding, never by a sign-up or update-user body.
      onboardedAt: { type: 'date', required: false, input: false },
      // The admin plugin's fields, read by the guards and the menus on every page: its client (admin-client.ts,
      // with better-auth's access control and error texts) loads with the admin screens.
      role: { type: 'string', required: false, input: false },
      banned: { type: 'boolean', required: false, input: false },
      banReason: { type: 'string', required: false, input: false },
      banExpires: { type: 'date', required: false, input: false },
      // The phone-number plugin's: set only by verifying a code (entities/phone-numbers).
      phoneNumber: { type: 'string', required: false, input: false },
      phoneNumberVerified: { type: 'boolean', required: false, input: false },
    },
    session: { impersonatedBy: { type: 'string', required: false, input: false } },
  }),
] as const;

/**
 * The app's client. Organizations and admin are not among its plugins: their clients (organization-client.ts,
 * admin-client.ts, with better-auth's error texts and access control) load with their screens, off the first page.
 */
export const authClient = createAuthClient({ ...AUTH_CLIENT_OPTIONS, plugins: [...AUTH_CLIENT_PLUGINS] });

export type Session = typeof authClient.$Infer.Session;
export type SessionUser = Session['user'];

/** Who was last signed in on this device (lib/offline-session.ts keeps it), for the guards without the network. */
export const LAST_SESSION_KEY = 'engram.last-session';
