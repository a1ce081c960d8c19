// The learner's settings and their study day now, which the dashboard's metrics are counted in.

import { studyDayAround } from '@engram/contracts/study-day';
import type { Stores } from '../db.js';
import { settingsOf } from './settings.js';
import { readSettings } from './settings-store.js';

export async function learnerDay(stores: Stores, ownerId: string) {
  const settings = settingsOf(await readSettings(stores.pool, ownerId));
  return { settings, ...studyDayAround(new Date(), settings.timezone, settings.dayStartHour) };
}
