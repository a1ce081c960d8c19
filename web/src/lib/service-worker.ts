// Registers the service worker (sw.ts) once the app has rendered, and announces a new version of the app: it waits
// and takes over on the next start, never in the middle of a session (a page keeps the code it started with).
import { Workbox } from 'workbox-window';
import { m } from '../generated/paraglide/messages.js';
import { toast } from './toast';

export async function registerServiceWorker(): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  const workbox = new Workbox('/sw.js');
  // A version installed behind this one (now, or on an earlier visit) waits for every tab to close.
  workbox.addEventListener('waiting', () => toast.message(m.app_update_ready()));
  await workbox.register();
}
