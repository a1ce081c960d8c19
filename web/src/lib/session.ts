// Reads the signed-in session for route guards, from the same store that authClient.useSession renders.
import { authClient, type Session } from './auth-client';

type SessionState = {
  data: Session | null;
  isPending: boolean;
  isRefetching: boolean;
  refetch: () => Promise<void>;
};

const sessionStore = authClient.$store.atoms.session as {
  get(): SessionState;
  subscribe(listener: (state: SessionState) => void): () => void;
};

/**
 * Resolves with the session once the store has settled. Subscribing mounts the store, which is what makes
 * better-auth fetch it; a guard must not decide on a value that is still loading or being refreshed.
 */
export function loadSession(): Promise<Session | null> {
  return new Promise((resolve) => {
    let settled = false;
    const unsubscribe: () => void = sessionStore.subscribe((state) => {
      if (settled || state.isPending || state.isRefetching) return;
      settled = true;
      resolve(state.data);
      // subscribe() calls the listener synchronously, before unsubscribe is assigned.
      queueMicrotask(() => unsubscribe());
    });
  });
}

/** Fetches the session again and waits for it, so the next guard sees the result of a sign-in or sign-out. */
export async function refreshSession(): Promise<Session | null> {
  await sessionStore.get().refetch();
  return loadSession();
}
