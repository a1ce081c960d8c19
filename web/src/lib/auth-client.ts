// The better-auth client: the one place the SPA talks to the gateway's /api/auth endpoints from. Its
// plugins match identity's (username, magic link, email code, two-factor, passkeys, API keys, several
// accounts per device, admin; organizations in organization-client.ts), so the auth screens call the standard endpoints, and identity's additional
// user field is typed for the guards. Generic OAuth has no 1.7 client plugin: the screens post to
// /sign-in/oauth2 themselves (auth-ui/provider.tsx).
import { apiKeyClient } from '@better-auth/api-key/client';
import { passkeyClient } from '@better-auth/passkey/client';
import { BANNED_USER_CODE } from '@engram/contracts/auth';
import {
  adminClient,
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
  adminClient(),
  // Set only by settings.completeOnboarding, never by a sign-up or update-user body.
  inferAdditionalFields({ user: { onboardedAt: { type: 'date', required: false, input: false } } }),
] as const;

/**
 * The app's client. Organizations are not among its plugins: their client (organization-client.ts, with
 * better-auth's error texts and access control) loads with the organization screens, off the first page.
 */
export const authClient = createAuthClient({ ...AUTH_CLIENT_OPTIONS, plugins: [...AUTH_CLIENT_PLUGINS] });

export type Session = typeof authClient.$Infer.Session;
export type SessionUser = Session['user'];
