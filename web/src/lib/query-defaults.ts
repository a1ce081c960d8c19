// The TanStack Query cache's defaults (docs/product.md#constants-and-limits): fresh for 30 s, unused data discarded
// after 300000 ms, three retries backing off from 1000 ms, doubling, up to 30000 ms; and an error toast for a
// failed fetch.
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isFinalRefusal } from './error-codes';

export const STALE_TIME_MS = 30_000;
export const GC_TIME_MS = 300_000;
export const MAX_RETRIES = 3;
export const FIRST_RETRY_DELAY_MS = 1000;
export const MAX_RETRY_DELAY_MS = 30_000;

/**
 * Retries server errors and lost connections. A 4xx answer (bad input, no session, forbidden, not found)
 * would come back the same, and retrying only delays the message by seconds; 408 (timed out) and 429
 * (rate limited) are the exceptions, as waiting is exactly what they ask for.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  return failureCount < MAX_RETRIES && !isFinalRefusal(error);
}

/** The wait before retry number `attempt + 1`: 1000 ms, 2000 ms, 4000 ms, … at most 30000 ms. */
export function retryDelay(attempt: number): number {
  return Math.min(FIRST_RETRY_DELAY_MS * 2 ** attempt, MAX_RETRY_DELAY_MS);
}

export interface QueryErrorHandlers {
  /**
   * Shows every failed fetch, once its retries are spent (docs/product.md#error-catalogue: a failed list fetch
   * shows an error toast).
   */
  onQueryError: (error: unknown) => void;
  /** Any failed query or mutation, e.g. to notice a session that ended. */
  onAnyError?: (error: unknown) => void;
}

export function createQueryClient({ onQueryError, onAnyError }: QueryErrorHandlers): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error) => {
        onQueryError(error);
        onAnyError?.(error);
      },
    }),
    mutationCache: new MutationCache({ onError: (error) => onAnyError?.(error) }),
    defaultOptions: {
      queries: { staleTime: STALE_TIME_MS, gcTime: GC_TIME_MS, retry: shouldRetry, retryDelay },
    },
  });
}
