// The better-auth client: the one place the SPA talks to the gateway's /api/auth endpoints from. Its
// plugins match identity's (username, magic link, email code, two-factor, admin), so the auth screens
// call the standard endpoints, and identity's additional user field is typed for the guards.
import {
  adminClient,
  emailOTPClient,
  inferAdditionalFields,
  magicLinkClient,
  twoFactorClient,
  usernameClient,
} from 'better-auth/client/plugins';
import { createAuthClient } from 'better-auth/react';
import { AUTH_FETCH_RETRY } from './auth-retry';

export const authClient = createAuthClient({
  // An absolute origin keeps better-auth from guessing one from build-time environment variables.
  baseURL: window.location.origin,
  basePath: '/api/auth',
  fetchOptions: { retry: AUTH_FETCH_RETRY },
  plugins: [
    usernameClient(),
    magicLinkClient(),
    emailOTPClient(),
    twoFactorClient(),
    adminClient(),
    // Set only by settings.completeOnboarding, never by a sign-up or update-user body.
    inferAdditionalFields({ user: { onboardedAt: { type: 'date', required: false, input: false } } }),
  ],
});

export type Session = typeof authClient.$Infer.Session;
export type SessionUser = Session['user'];
