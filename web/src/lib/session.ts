// Reads the signed-in session for route guards, from the same store that authClient.useSession renders.
import { authClient, LAST_SESSION_KEY, type Session } from './auth-client';

type SessionState = {
  data: Session | null;
  error: unknown;
  isPending: boolean;
  isRefetching: boolean;
  refetch: () => Promise<void>;
};

const sessionStore = authClient.$store.atoms.session as {
  get(): SessionState;
  subscribe(listener: (state: SessionState) => void): () => void;
};

/** The session last known on this device (lib/offline-session.ts), unless it has expired since. */
function lastSession(): Session | null {
  try {
    const kept: Session | null = JSON.parse(localStorage.getItem(LAST_SESSION_KEY) ?? 'null');
    return kept && new Date(kept.session.expiresAt) > new Date() ? kept : null;
  } catch {
    return null;
  }
}

/**
 * Resolves with the session once the store has settled (offline: the last one known on this device). Subscribing mounts the store, which is what makes
 * better-auth fetch it; a guard must not decide on a value that is still loading or being refreshed.
 */
export function loadSession(): Promise<Session | null> {
  return new Promise((resolve) => {
    let settled = false;
    const unsubscribe: () => void = sessionStore.subscribe((state) => {
      if (settled || state.isPending || state.isRefetching) return;
      settled = true;
      resolve(state.data ?? (navigator.onLine ? null : lastSession()));
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

/**
 * Calls `listener` with who is signed in each time the session settles and is known: null once identity answers
 * that there is none. Offline, or when identity cannot be asked, it is not known and `listener` is not called.
 */
export function watchSignedIn(listener: (userId: string | null) => void): () => void {
  return sessionStore.subscribe((state) => {
    if (state.isPending || state.isRefetching) return;
    const userId = state.data?.user.id ?? null;
    if (userId === null && (state.error || !navigator.onLine)) return;
    listener(userId);
  });
}
