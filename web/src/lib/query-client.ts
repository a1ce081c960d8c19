// The app's one TanStack Query cache, with the defaults of docs/product.md#constants-and-limits
// (query-defaults.ts): a failed fetch shows an error toast, and a 401 or a ban anywhere refreshes the session so
// the route guards send the user to sign-in or to /suspended.
import { onlineManager } from '@tanstack/react-query';
import { httpStatus, isBannedUserError, trpcCode } from './error-codes';
import { createQueryClient } from './query-defaults';
import { refreshSession } from './session';
import { toastErrorLater } from './toast-error-later';

function onSessionRefused(error: unknown): void {
  const unauthorized = trpcCode(error) === 'UNAUTHORIZED' || httpStatus(error) === 401;
  if (unauthorized || isBannedUserError(error)) void refreshSession();
}

export const queryClient = createQueryClient({ onQueryError: toastErrorLater, onAnyError: onSessionRefused });

// TanStack Query learns of the network from the browser's online and offline events only: an app that starts
// offline (the installed app, practising) would send every load to fail. Its loads wait instead, until online.
onlineManager.setOnline(navigator.onLine);
