// Turns any error the app meets (a better-auth result, a tRPC error, a thrown value) into the one line of
// text an error toast shows, in the current language and in the order of docs/product.md#error-catalogue.

import {
  AUTH_ERRORS,
  COLLECTION_ERRORS,
  GENERATION_ERRORS,
  REQUEST_ERRORS,
  REVIEW_ERRORS,
  SHARED_DECK_ERRORS,
} from './error-catalogue';
import { isBannedUserError, isObject, text } from './error-codes';
import { toast } from './toast';

export { httpStatus, trpcCode } from './error-codes';

/** Message texts by error code, each read in the current language when called. */
export type Catalogue = Readonly<Record<string, () => string>>;

/** Every auth, generation, shared-deck, import/export and review error of the catalogue in one lookup, with REQUEST_FAILED (the resolver's last resort). */
export const ERROR_CATALOGUE: Catalogue = Object.assign(
  { REQUEST_FAILED: REQUEST_ERRORS.REQUEST_FAILED },
  ...Object.values(AUTH_ERRORS),
  GENERATION_ERRORS,
  SHARED_DECK_ERRORS,
  COLLECTION_ERRORS,
  REVIEW_ERRORS,
);

/** The text when even the catalogue has no REQUEST_FAILED (the final fallback). */
const LAST_RESORT = 'Request failed';

/** tRPC codes whose server message is generic or internal: the user reads the catalogue's text instead. */
const GENERIC_TRPC_CODES = new Set([
  'UNAUTHORIZED',
  'TOO_MANY_REQUESTS',
  'PAYLOAD_TOO_LARGE',
  'TIMEOUT',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_SERVER_ERROR',
]);

/** What fetch rejects with in Chromium, Firefox and Safari when a request never got an answer. */
const NETWORK_FAILURES = new Set(['Failed to fetch', 'NetworkError when attempting to fetch resource.', 'Load failed']);

type ErrorLike = { code?: unknown; message?: unknown; statusText?: unknown; status?: unknown; data?: unknown };

const lookup = (catalogue: Catalogue, key: unknown): string | undefined => {
  const code = text(key);
  return code !== undefined && Object.hasOwn(catalogue, code) ? catalogue[code]?.() : undefined;
};

/**
 * The display text of an error (docs/product.md#error-catalogue): a string is a catalogue key; a better-auth
 * result's nested error gives its code's text, else its own message, code or status text; any other error its own
 * message. Each path ends with REQUEST_FAILED, then "Request failed". An error object with a catalogue code of its
 * own (better-auth's error without its result) gets that code's text first. A tRPC error (code and message, the
 * domain reason and validation issues in `data`) shows the text of its domain reason when the catalogue has one,
 * and the catalogue's text for generic codes (no session, rate limit, timeout, unavailable, internal), whose server
 * message is not written for users; otherwise its message, which the gateway words for them.
 */
export function resolveErrorMessage(error: unknown, catalogue: Catalogue = ERROR_CATALOGUE): string {
  const requestFailed = () => lookup(catalogue, 'REQUEST_FAILED') ?? LAST_RESORT;

  if (typeof error === 'string') return lookup(catalogue, error) ?? requestFailed();
  if (!isObject(error)) return requestFailed();

  const nested = error.error;
  if (isObject(nested)) {
    const inner = nested as ErrorLike;
    return (
      lookup(catalogue, inner.code) ??
      text(inner.message) ??
      text(inner.code) ??
      text(inner.statusText) ??
      requestFailed()
    );
  }

  const own = error as ErrorLike;
  return requestErrorText(own, catalogue) ?? text(own.message) ?? requestFailed();
}

/** The catalogue's text for a failed request, when its own message is not the one to show. */
function requestErrorText(error: ErrorLike, catalogue: Catalogue): string | undefined {
  // A better-auth error handed over without its result wrapper is read like the nested one.
  const own = lookup(catalogue, error.code);
  if (own !== undefined) return own;
  const data = isObject(error.data) ? error.data : undefined;
  const reason = lookup(catalogue, data?.reason);
  if (reason !== undefined) return reason;
  const code = text(data?.code);
  if (code !== undefined && GENERIC_TRPC_CODES.has(code)) return lookup(REQUEST_ERRORS, code);
  const message = text(error.message);
  if (message !== undefined && NETWORK_FAILURES.has(message)) return REQUEST_ERRORS.NETWORK_ERROR();
  return undefined;
}

/**
 * Shows an error toast; the toast id de-duplicates the same message raised by several failing calls. A ban
 * shows none: the app is on its way to /suspended, which says it (query-client.ts, routes/protected.tsx).
 */
export function toastError(error: unknown): void {
  if (isBannedUserError(error)) return;
  const message = resolveErrorMessage(error);
  toast.error(message, { id: `error:${message}` });
}
