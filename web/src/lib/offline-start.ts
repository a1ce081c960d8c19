// What makes a signed-in learner's app work offline, started once it has rendered (service-worker-loader.ts): the
// session remembered for the guards (offline-session.ts) and the service worker registered (service-worker.ts).
import type { Session } from './auth-client';
import { rememberSession } from './offline-session';
import { registerServiceWorker } from './service-worker';

let registered = false;

export function startOffline(session: Session): void {
  rememberSession(session);
  // The Vite dev server has no service worker to register.
  if (registered || !import.meta.env.PROD) return;
  registered = true;
  // A browser that refuses it (private modes, a policy) has the app without offline use: nothing to tell.
  registerServiceWorker().catch(() => undefined);
}
