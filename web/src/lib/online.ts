// Whether the browser says it has a network (navigator.onLine and its online/offline events), for screens that
// practise from the device or say that they need the network.
import { useSyncExternalStore } from 'react';

function subscribe(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

export const useOnline = (): boolean => useSyncExternalStore(subscribe, () => navigator.onLine);
