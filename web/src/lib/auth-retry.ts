// The auth client's retry policy (linear, 1000 ms apart: docs/product.md#constants-and-limits). Only answers that
// say the request never reached identity, or timed out, are retried: a refused sign-in or a bad code would come
// back the same, and retrying it would only spend the rate limit and delay the message.
export const AUTH_RETRY_ATTEMPTS = 3;
export const AUTH_RETRY_DELAY_MS = 1000;

/** Timed out (408), or the gateway could not reach identity (502, 503, 504). */
const RETRIED_STATUSES = new Set([408, 502, 503, 504]);

export function shouldRetryAuthResponse(response: Response | null): boolean {
  return response !== null && RETRIED_STATUSES.has(response.status);
}

export const AUTH_FETCH_RETRY = {
  type: 'linear',
  attempts: AUTH_RETRY_ATTEMPTS,
  delay: AUTH_RETRY_DELAY_MS,
  shouldRetry: shouldRetryAuthResponse,
} as const;
