// Turns any error the app can meet (better-auth results, tRPC errors, thrown values) into the one line of
// text shown in an error toast, following the spec's order of fallbacks (§8).
import { toast } from 'sonner';
import { m } from './i18n';

/** Display text for error codes, in the current language; codes not listed fall back to the server's own message. */
const MESSAGES: Record<string, () => string> = {
  REQUEST_FAILED: m.error_request_failed,
  USER_NOT_FOUND: m.error_user_not_found,
  USER_ALREADY_EXISTS: m.error_user_already_exists,
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: m.error_user_already_exists,
  INVALID_EMAIL: m.error_invalid_email,
  INVALID_EMAIL_OR_PASSWORD: m.error_invalid_email_or_password,
  INVALID_PASSWORD: m.error_invalid_password,
  PASSWORD_TOO_SHORT: m.error_password_too_short,
  PASSWORD_TOO_LONG: m.error_password_too_long,
  EMAIL_NOT_VERIFIED: m.error_email_not_verified,
  EMAIL_CAN_NOT_BE_UPDATED: m.error_email_can_not_be_updated,
  SESSION_EXPIRED: m.error_session_expired,
  SESSION_NOT_FRESH: m.error_session_not_fresh,
  FAILED_TO_UNLINK_LAST_ACCOUNT: m.error_failed_to_unlink_last_account,
  ACCOUNT_NOT_FOUND: m.error_account_not_found,
  SOCIAL_ACCOUNT_ALREADY_LINKED: m.error_social_account_already_linked,
  PROVIDER_NOT_FOUND: m.error_provider_not_found,
  INVALID_TOKEN: m.error_invalid_token,
  CREDENTIAL_ACCOUNT_NOT_FOUND: m.error_credential_account_not_found,
  USER_ALREADY_HAS_PASSWORD: m.error_user_already_has_password,
  BANNED_USER: m.error_banned_user,
  FAILED_TO_CREATE_USER: m.error_failed_to_create_user,
  FAILED_TO_CREATE_SESSION: m.error_failed_to_create_session,
  TOO_MANY_REQUESTS: m.error_too_many_requests,
  // tRPC codes, for errors whose server message is not meant for users.
  UNAUTHORIZED: m.error_unauthorized,
  FORBIDDEN: m.error_forbidden,
  INTERNAL_SERVER_ERROR: m.error_internal,
  // Browsers' text for a request that never reached the server.
  'Failed to fetch': m.error_network,
};

type ErrorLike = { code?: unknown; message?: unknown; status?: unknown; statusText?: unknown; data?: unknown };

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

const localized = (code: unknown): string | undefined => {
  const key = text(code);
  return key !== undefined ? MESSAGES[key]?.() : undefined;
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
  if (typeof error === 'string') return localized(error) ?? error;
  if (error === null || typeof error !== 'object') return m.error_request_failed();

  // A better-auth result ({ data, error }) or any wrapper holding the error object one level down.
  const nested = (error as { error?: unknown }).error;
  if (nested !== null && typeof nested === 'object') {
    const inner = nested as ErrorLike;
    return (
      localized(inner.code) ??
      text(inner.message) ??
      text(inner.code) ??
      text(inner.statusText) ??
      m.error_request_failed()
    );
  }

  const own = error as ErrorLike;
  const code = text(own.code) ?? trpcCode(error);
  // The server's message for a known tRPC code may be an internal detail, so a mapped text wins for those.
  if (code === 'INTERNAL_SERVER_ERROR' || code === 'UNAUTHORIZED') return MESSAGES[code]!();
  return (
    localized(code) ??
    localized(own.message) ??
    firstIssue(own.message) ??
    text(own.statusText) ??
    m.error_request_failed()
  );
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
