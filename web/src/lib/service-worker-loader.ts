// Once the signed-in home or practice has rendered, loads apart from the entry what makes the app work offline
// (offline-start.ts): the public pages and the rest of the app carry none of it (the JavaScript budget,
// web/README.md).
import type { Session } from './auth-client';

export function startOfflineAfterRender(session: Session): void {
  void import('./offline-start').then((module) => module.startOffline(session));
}
