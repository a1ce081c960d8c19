// Cached data belongs to one user: signing out, losing the session or switching user clears it (spec §4).
import type { QueryClient } from '@tanstack/react-query';
import { authClient } from './auth-client';

type SessionSnapshot = { data: { user: { id: string } } | null; isPending: boolean; isRefetching: boolean };

/** Starts watching the session store; also keeps it mounted, so better-auth fetches the session at start-up. */
export function clearCacheOnUserChange(queryClient: QueryClient): () => void {
  let currentUserId: string | null | undefined;
  const store = authClient.$store.atoms.session as {
    subscribe(listener: (state: SessionSnapshot) => void): () => void;
  };
  return store.subscribe((state) => {
    if (state.isPending) return;
    const userId = state.data?.user.id ?? null;
    if (currentUserId !== undefined && userId !== currentUserId) queryClient.clear();
    currentUserId = userId;
  });
}
