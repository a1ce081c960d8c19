// The address a sign-up just mailed a verification link to, for the sign-in view's "check your inbox": kept
// for this tab (sessionStorage, so a reload keeps it), forgotten on signing out, on choosing another address, and
// once that address is signed in (its link followed), so that adding another account later does not show it.
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

/** Forgets the address once a session of its own exists: the link was followed, and the notice is done. */
export function verificationDone(signedInEmail: string): void {
  if (pendingVerification()?.toLowerCase() === signedInEmail.toLowerCase()) forgetPendingVerification();
}
