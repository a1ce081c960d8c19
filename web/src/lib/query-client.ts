// The TanStack Query cache and its defaults (spec §9): 30 s freshness, 5 min garbage collection, three
// retries with doubling back-off, no retry for client errors, and an error toast for a failed fetch.
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { httpStatus, toastError, trpcCode } from './errors';
import { refreshSession } from './session';

const MAX_RETRIES = 3;
const FIRST_RETRY_DELAY_MS = 1000;
const MAX_RETRY_DELAY_MS = 30_000;

/** 4xx answers (bad input, no session, forbidden, not found) will not change on a retry. */
function isClientError(error: unknown): boolean {
  const status = httpStatus(error);
  return status !== undefined && status >= 400 && status < 500;
}

/** A 401 means the session ended on the server; refreshing it lets the route guards send the user to sign-in. */
function onUnauthorized(error: unknown): void {
  if (trpcCode(error) === 'UNAUTHORIZED' || httpStatus(error) === 401) void refreshSession();
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (error) => {
      toastError(error);
      onUnauthorized(error);
    },
  }),
  mutationCache: new MutationCache({ onError: onUnauthorized }),
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      gcTime: 300_000,
      retry: (failureCount, error) => failureCount < MAX_RETRIES && !isClientError(error),
      retryDelay: (attempt) => Math.min(FIRST_RETRY_DELAY_MS * 2 ** attempt, MAX_RETRY_DELAY_MS),
    },
  },
});
