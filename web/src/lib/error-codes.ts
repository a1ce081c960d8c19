// Reading an error's codes without the error catalogue (errors.ts), so code that runs on every page (the
// query cache, the header) can tell a 401 or a ban from other failures, and toast an error, without loading
// every message with the page.
import { BANNED_USER_CODE } from '@engram/contracts/auth';

export const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object';

export const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/** The tRPC error code (e.g. "UNAUTHORIZED") of a TRPCClientError, read structurally. */
export function trpcCode(error: unknown): string | undefined {
  const data = isObject(error) && isObject(error.data) ? error.data : undefined;
  return text(data?.code);
}

/** The HTTP status of a better-auth or tRPC error, when it has one. */
export function httpStatus(error: unknown): number | undefined {
  if (!isObject(error)) return undefined;
  const status = error.status ?? (isObject(error.data) ? error.data.httpStatus : undefined);
  return typeof status === 'number' ? status : undefined;
}

/**
 * Whether a failed call is the server's final word: a 4xx answer (bad input, no session, forbidden, not found) would
 * come back the same, so it is not tried again; 408 (timed out) and 429 (rate limited) ask for exactly that wait.
 */
export function isFinalRefusal(error: unknown): boolean {
  const status = httpStatus(error);
  return status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;
}

/**
 * Whether the answer refuses a banned user: a tRPC error with that reason (the gateway), or better-auth's
 * error, alone or in its result (identity).
 */
export function isBannedUserError(error: unknown): boolean {
  if (!isObject(error)) return false;
  if (error.code === BANNED_USER_CODE) return true;
  if (isObject(error.data) && error.data.reason === BANNED_USER_CODE) return true;
  return isObject(error.error) && error.error.code === BANNED_USER_CODE;
}
