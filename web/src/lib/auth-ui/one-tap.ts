// Google One Tap on the sign-in, sign-up, magic-link and email-code views (better-auth-ui's `oneTap`): only where
// Google sign-in is configured (the gateway names its client id) and the visitor has accepted its category of the
// cookie banner. Until both hold, nothing of Google's loads; a decision changed on the page takes effect at once.
// Loaded by the provider only where Google sign-in is configured, so other installations' pages do not carry it.
import { followGoogleSignInConsent } from '../consent-loader';

type OneTap = (...args: unknown[]) => Promise<unknown>;

/**
 * `client` with better-auth's `oneTap` action, its plugin loaded on the first prompt: the library calls
 * `authClient.oneTap()` where it shows One Tap, and the app's client does not carry the plugin.
 */
export function withOneTap<C extends object>(client: C, clientId: string): C {
  let loaded: Promise<{ oneTap: OneTap }> | undefined;
  const oneTap: OneTap = async (...args) => {
    loaded ??= import('./one-tap-client').then(
      (module) => module.oneTapAuthClient(clientId) as unknown as { oneTap: OneTap },
    );
    return (await loaded).oneTap(...args);
  };
  return new Proxy(client, {
    get: (target, property, receiver) => (property === 'oneTap' ? oneTap : Reflect.get(target, property, receiver)),
  });
}

/**
 * Hands `show` the client with One Tap while the visitor accepts it, and undefined while they do not, now and
 * after every decision; returns the function that stops following.
 */
export function followOneTap<C extends object>(
  client: C,
  clientId: string,
  show: (client: C | undefined) => void,
): () => void {
  const withIt = withOneTap(client, clientId);
  return followGoogleSignInConsent((accepted) => show(accepted ? withIt : undefined));
}
