// Keeps who is signed in on this device, so the installed app opens without the network: the protected routes'
// guard reads it when the session cannot be fetched (lib/session.ts). Only who they are and until when: no token (the
// cookie stays the only credential). It is forgotten on signing out and whenever identity answers that there is no
// session, ended here or elsewhere (lib/session-cache.ts), and not used once expired (lib/session.ts); another
// account signing in replaces it.
import { LAST_SESSION_KEY, type Session } from './auth-client';

export function rememberSession({ user, session }: Session): void {
  const kept = {
    user,
    session: {
      id: session.id,
      userId: session.userId,
      expiresAt: session.expiresAt,
      impersonatedBy: session.impersonatedBy,
    },
  };
  try {
    localStorage.setItem(LAST_SESSION_KEY, JSON.stringify(kept));
  } catch {
    // Storage switched off: the app then needs the network to open.
  }
}
