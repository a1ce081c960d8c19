// Cached data belongs to one user: signing out, losing the session or switching user clears it
// (docs/product.md#states-and-transitions). Signing out (or losing the session) also drops the user's unsaved
// generated proposals from this device.
import type { QueryClient } from '@tanstack/react-query';
import { clearGenerationDraft } from '../entities/generation/draft-store';
import { authClient, LAST_SESSION_KEY, type Session } from './auth-client';

type SessionSnapshot = { data: Session | null; error: unknown; isPending: boolean; isRefetching: boolean };

const sessionStore = authClient.$store.atoms.session as {
  get(): SessionSnapshot;
  subscribe(listener: (state: SessionSnapshot) => void): () => void;
};

/** Forgets the session kept for opening the app without the network (lib/offline-session.ts). */
export function forgetLastSession(): void {
  try {
    localStorage.removeItem(LAST_SESSION_KEY);
  } catch {
    // Storage switched off: nothing was kept.
  }
}

/** The user the cached data belongs to: undefined until the first session is known, null when signed out. */
let cachedFor: string | null | undefined;

/** Clears the cache when the session's user is not the one its data was fetched for. */
export function clearCacheIfUserChanged(queryClient: QueryClient): void {
  const state = sessionStore.get();
  if (state.isPending) return;
  const userId = state.data?.user.id ?? null;
  // Offline, the session could not be fetched: the learner is still signed in on this device.
  if (userId === null && !navigator.onLine) return;
  // Online, identity says there is no session (it ended, here or elsewhere): the device forgets the one it kept
  // for opening without the network.
  if (userId === null && !state.error) forgetLastSession();
  if (cachedFor !== undefined && userId !== cachedFor) queryClient.clear();
  if (cachedFor && userId === null) clearGenerationDraft(cachedFor);
  cachedFor = userId;
}

/** Starts watching the session store; also keeps it mounted, so better-auth fetches the session at start-up. */
export function clearCacheOnUserChange(queryClient: QueryClient): () => void {
  return sessionStore.subscribe(() => clearCacheIfUserChanged(queryClient));
}
