// How many days of cards this device keeps for practice without the network (cards.offlineSet's horizon): the
// learner's choice for this device (its storage, its use), kept in the browser; the server's default until chosen.
import { OFFLINE_HORIZON_DAYS, OFFLINE_HORIZON_DAYS_MAX } from '@engram/contracts/offline';

const KEY = 'engram.offline-days';

/** The choices offered: from a short trip to two weeks away. */
export const HORIZON_CHOICES = [2, 3, 5, 7, 10, OFFLINE_HORIZON_DAYS_MAX] as const;

export function horizonDays(): number {
  try {
    const days = Number(localStorage.getItem(KEY));
    return Number.isInteger(days) && days >= 1 && days <= OFFLINE_HORIZON_DAYS_MAX ? days : OFFLINE_HORIZON_DAYS;
  } catch {
    return OFFLINE_HORIZON_DAYS;
  }
}

export function setHorizonDays(days: number): void {
  try {
    localStorage.setItem(KEY, String(days));
  } catch {
    // Storage switched off: the default stays.
  }
}
