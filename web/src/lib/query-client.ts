// The app's one TanStack Query cache, with the defaults of spec §9 (query-defaults.ts): a failed fetch
// shows an error toast, and a 401 anywhere refreshes the session so the route guards send the user to
// sign-in.
import { httpStatus, toastErrorLater, trpcCode } from './error-codes';
import { createQueryClient } from './query-defaults';
import { refreshSession } from './session';

function onUnauthorized(error: unknown): void {
  if (trpcCode(error) === 'UNAUTHORIZED' || httpStatus(error) === 401) void refreshSession();
}

export const queryClient = createQueryClient({ onQueryError: toastErrorLater, onAnyError: onUnauthorized });
