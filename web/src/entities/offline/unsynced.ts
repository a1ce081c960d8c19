// Before the device changes hands (a sign-out, a switch to another account signed in here): the signed-in learner's
// device is closed and the reviews they did on it and have not synced are sent now if the server answers; answers
// how many are still waiting, which the learner is then told stay in this account's own queue.
import { loadSession } from '../../lib/session';
import { apiFor, closeDevice } from './device';
import { DeviceStore } from './device-store';
import { sendQueue } from './sync';

/** The signed-in learner's reviews still waiting on this device once sent (0 when no one is signed in or none can be read). */
export async function sendUnsyncedOfSignedIn(): Promise<number> {
  try {
    const session = await loadSession();
    if (!session) return 0;
    await closeDevice();
    const store = await DeviceStore.open(session.user.id);
    try {
      // Unsent (offline, or the server not answering): they wait in the queue.
      if (navigator.onLine) await sendQueue(store, apiFor(session.user.id)).catch(() => undefined);
      return await store.unsyncedReviews();
    } finally {
      store.close();
    }
  } catch {
    return 0;
  }
}
