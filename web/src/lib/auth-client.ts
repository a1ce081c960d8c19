// The better-auth client: the one place the SPA talks to the gateway's /api/auth endpoints from.
import { inferAdditionalFields } from 'better-auth/client/plugins';
import { createAuthClient } from 'better-auth/react';

export const authClient = createAuthClient({
  // An absolute origin keeps better-auth from guessing one from build-time environment variables.
  baseURL: window.location.origin,
  basePath: '/api/auth',
  // identity's additional user field (set only by settings.completeOnboarding), typed for the guards.
  plugins: [inferAdditionalFields({ user: { onboardedAt: { type: 'date', required: false, input: false } } })],
});

export type Session = typeof authClient.$Infer.Session;
export type SessionUser = Session['user'];
