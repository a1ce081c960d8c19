// Turns any error the app can meet (better-auth results, tRPC errors, thrown values) into the one line of
// text shown in an error toast, following the spec's order of fallbacks (§8).
import { toast } from 'sonner';

const REQUEST_FAILED = 'Request failed';

/** Display text for error codes; codes not listed fall back to the server's own message. */
const MESSAGES: Record<string, string> = {
  REQUEST_FAILED,
  USER_NOT_FOUND: 'User not found',
  USER_ALREADY_EXISTS: 'User already exists',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'User already exists',
  INVALID_EMAIL: 'Email is invalid',
  INVALID_EMAIL_OR_PASSWORD: 'Invalid email or password',
  INVALID_PASSWORD: 'Invalid password',
  PASSWORD_TOO_SHORT: 'Password too short',
  PASSWORD_TOO_LONG: 'Password too long',
  EMAIL_NOT_VERIFIED: 'Email not verified. Please check your inbox.',
  EMAIL_CAN_NOT_BE_UPDATED: 'Email can not be updated',
  SESSION_EXPIRED: 'Re-authenticate',
  SESSION_NOT_FRESH: 'Your session is not fresh. Please sign in again.',
  FAILED_TO_UNLINK_LAST_ACCOUNT: "You can't unlink your last account",
  ACCOUNT_NOT_FOUND: 'Account not found',
  SOCIAL_ACCOUNT_ALREADY_LINKED: 'Social account already linked',
  PROVIDER_NOT_FOUND: 'Provider not found',
  INVALID_TOKEN: 'Invalid token',
  CREDENTIAL_ACCOUNT_NOT_FOUND: 'Credential account not found',
  USER_ALREADY_HAS_PASSWORD: 'User already has a password',
  BANNED_USER: 'You have been banned from this application',
  FAILED_TO_CREATE_USER: 'Failed to create user',
  FAILED_TO_CREATE_SESSION: 'Failed to create session',
  TOO_MANY_REQUESTS: 'Too many requests. Please try again later.',
  // tRPC codes, for errors whose server message is not meant for users.
  UNAUTHORIZED: 'Your session has ended. Please sign in again.',
  FORBIDDEN: 'You are not allowed to do that',
  INTERNAL_SERVER_ERROR: 'Something went wrong!',
  // Browsers' text for a request that never reached the server.
  'Failed to fetch': 'Could not reach the server. Check your connection and try again.',
};

type ErrorLike = { code?: unknown; message?: unknown; status?: unknown; statusText?: unknown; data?: unknown };

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

const localized = (code: unknown): string | undefined => {
  const key = text(code);
  return key !== undefined ? MESSAGES[key] : undefined;
};

/** The tRPC error code (e.g. "UNAUTHORIZED") of a TRPCClientError, read structurally. */
export function trpcCode(error: unknown): string | undefined {
  const data = (error as ErrorLike | null)?.data as { code?: unknown } | null | undefined;
  return text(data?.code);
}

/** The HTTP status of a better-auth or tRPC error, when it has one. */
export function httpStatus(error: unknown): number | undefined {
  const candidate = error as (ErrorLike & { data?: { httpStatus?: unknown } | null }) | null;
  const status = candidate?.status ?? candidate?.data?.httpStatus;
  return typeof status === 'number' ? status : undefined;
}

export function getErrorMessage(error: unknown): string {
  if (typeof error === 'string') return MESSAGES[error] ?? error;
  if (error === null || typeof error !== 'object') return REQUEST_FAILED;

  // A better-auth result ({ data, error }) or any wrapper holding the error object one level down.
  const nested = (error as { error?: unknown }).error;
  if (nested !== null && typeof nested === 'object') {
    const inner = nested as ErrorLike;
    return localized(inner.code) ?? text(inner.message) ?? text(inner.code) ?? text(inner.statusText) ?? REQUEST_FAILED;
  }

  const own = error as ErrorLike;
  const code = text(own.code) ?? trpcCode(error);
  // The server's message for a known tRPC code may be an internal detail, so a mapped text wins for those.
  if (code === 'INTERNAL_SERVER_ERROR' || code === 'UNAUTHORIZED') return MESSAGES[code]!;
  return localized(code) ?? localized(own.message) ?? firstIssue(own.message) ?? text(own.statusText) ?? REQUEST_FAILED;
}

/** tRPC sends input-validation failures as a JSON list of issues; users see the first issue's message. */
function firstIssue(message: unknown): string | undefined {
  const raw = text(message);
  if (raw === undefined || !raw.startsWith('[')) return raw;
  try {
    const issues = JSON.parse(raw) as Array<{ message?: unknown }>;
    return text(issues[0]?.message) ?? raw;
  } catch {
    return raw;
  }
}

/** Shows an error toast; the toast id de-duplicates the same message raised by several failing calls. */
export function toastError(error: unknown): void {
  const message = getErrorMessage(error);
  toast.error(message, { id: `error:${message}` });
}
