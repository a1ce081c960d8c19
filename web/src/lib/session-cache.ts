// Cached data belongs to one user: signing out, losing the session or switching user clears it
// (docs/product.md#states-and-transitions). Signing out (or losing the session) also drops the user's unsaved
// generated proposals and pasted notes from this device; and the device keeps the offline set and cards' pictures
// of the account in use alone (entities/offline/keep-only.ts).
import type { QueryClient } from '@tanstack/react-query';
import { clearGenerationDraft, clearNotesDraft } from '../entities/generation/draft-store';
import { keepOfflineDataOf } from '../entities/offline/keep-only';
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

/** Who was last signed in on this device, as kept for opening it offline (lib/offline-session.ts). */
function lastSignedIn(): string | undefined {
  try {
    return JSON.parse(localStorage.getItem(LAST_SESSION_KEY) ?? 'null')?.user.id;
  } catch {
    return undefined;
  }
}

/** The account whose offline data the device keeps: undefined until the first session is known, null for none. */
let keptFor: string | null | undefined;

/** The user the cached data belongs to: undefined until the first session is known, null when signed out. */
let cachedFor: string | null | undefined;

/** Clears the cache when the session's user is not the one its data was fetched for. */
export function clearCacheIfUserChanged(queryClient: QueryClient): void {
  const state = sessionStore.get();
  if (state.isPending) return;
  const userId = state.data?.user.id ?? null;
  // Offline, the session could not be fetched: the learner is still signed in on this device.
  if (userId === null && !navigator.onLine) return;
  const known = userId !== null || !state.error;
  if (known && userId !== keptFor) {
    // The pictures kept are another account's unless this one was in use, or last signed in, here.
    void keepOfflineDataOf(userId, { media: userId === null || (keptFor ?? lastSignedIn()) !== userId });
    keptFor = userId;
  }
  // Online, identity says there is no session (it ended, here or elsewhere): the device forgets the one it kept
  // for opening without the network.
  if (userId === null && !state.error) forgetLastSession();
  if (cachedFor !== undefined && userId !== cachedFor) queryClient.clear();
  if (cachedFor && userId === null) {
    clearGenerationDraft(cachedFor);
    clearNotesDraft(cachedFor);
  }
  cachedFor = userId;
}

/** Starts watching the session store; also keeps it mounted, so better-auth fetches the session at start-up. */
export function clearCacheOnUserChange(queryClient: QueryClient): () => void {
  return sessionStore.subscribe(() => clearCacheIfUserChanged(queryClient));
}
