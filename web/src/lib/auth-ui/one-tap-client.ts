// The auth client of Google One Tap, made once a sign-in view prompts (one-tap.ts): better-auth's one-tap plugin,
// which loads Google's sign-in client and sends the ID token Google gives the page to identity's /one-tap/callback.
// Apart from the app's client, so no page carries it unless Google sign-in is configured and its cookies accepted.
import { createAuthClient } from 'better-auth/client';
import { oneTapClient } from 'better-auth/client/plugins';
import { AUTH_CLIENT_OPTIONS } from '../auth-client';

export const oneTapAuthClient = (clientId: string) =>
  createAuthClient({
    ...AUTH_CLIENT_OPTIONS,
    // One prompt a view: a learner who closes it is not asked again and again.
    plugins: [oneTapClient({ clientId, promptOptions: { maxAttempts: 1 } })],
  });
