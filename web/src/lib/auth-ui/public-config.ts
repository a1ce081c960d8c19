// What this installation offers (GET /api/auth/public-config): configured social and generic OAuth
// providers, captcha, passkeys, API keys, several accounts. Fetched once per visit (the first auth or
// account screen asks; a failed fetch is tried again by the next screen) and kept; until it arrives the
// screens show no provider buttons rather than ones that fail. A small store of its own rather than
// TanStack Query's hooks, which the sign-in page would otherwise load for this one value.
import type { PublicAuthConfig } from '@engram/contracts/auth-features';
import { useSyncExternalStore } from 'react';

export const PUBLIC_CONFIG_PATH = '/api/auth/public-config';

async function fetchPublicConfig(): Promise<PublicAuthConfig> {
  const response = await fetch(PUBLIC_CONFIG_PATH, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
  // identity's own answer (its test pins the shape); no schema library is loaded for it here.
  return (await response.json()) as PublicAuthConfig;
}

let config: PublicAuthConfig | undefined;
let loading: Promise<void> | undefined;
const listeners = new Set<() => void>();

function load(): void {
  if (config || loading) return;
  loading = fetchPublicConfig().then(
    (answer) => {
      config = answer;
      for (const listener of listeners) listener();
    },
    () => {
      loading = undefined;
    },
  );
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  load();
  return () => listeners.delete(listener);
}

export function usePublicAuthConfig(): PublicAuthConfig | undefined {
  return useSyncExternalStore(subscribe, () => config);
}
