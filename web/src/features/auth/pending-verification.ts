// The address a sign-up just mailed a verification link to, for the sign-in view's "check your inbox": kept
// for this tab (sessionStorage, so a reload keeps it), forgotten on signing out or choosing another address.
const KEY = 'engram:verification-sent-to';

export function pendingVerification(): string | undefined {
  try {
    return sessionStorage.getItem(KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

export function rememberPendingVerification(email: string): void {
  try {
    sessionStorage.setItem(KEY, email);
  } catch {
    // Storage refused (private mode, quota): the notice lasts until the page is left.
  }
}

export function forgetPendingVerification(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing was kept.
  }
}
