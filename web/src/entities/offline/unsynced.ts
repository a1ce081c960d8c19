// How many reviews the learner signed in now did on this device and has not synced: asked before the device changes
// hands (a sign-out, a switch to another account signed in here), when the learner is told they stay in this
// account's own queue.
import { loadSession } from '../../lib/session';
import { DeviceStore } from './device-store';

/** The signed-in learner's reviews waiting on this device (0 when no one is signed in or none can be read). */
export async function unsyncedOfSignedIn(): Promise<number> {
  try {
    const session = await loadSession();
    if (!session) return 0;
    const store = await DeviceStore.open(session.user.id);
    try {
      return await store.unsyncedReviews();
    } finally {
      store.close();
    }
  } catch {
    return 0;
  }
}
