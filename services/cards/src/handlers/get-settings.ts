// GetSettings: the caller's scheduling settings (defaults until they change one) and their presets.
import type { CallContext } from '@engram/kit/grpc/server';
import type { GetSettingsRequest, Settings } from '@engram/proto/cards/v1/settings';
import type { Stores } from '../db.js';
import { settingsMessage, settingsOf } from '../learner/settings.js';
import { readSettings } from '../learner/settings-store.js';
import { presetMessages } from '../presets/presets.js';

export function getSettings({ db, pool }: Stores) {
  return async (_request: GetSettingsRequest, ctx: CallContext): Promise<Settings> => {
    const ownerId = ctx.caller.userId;
    const [row, presets] = await Promise.all([readSettings(pool, ownerId), presetMessages(db, ownerId)]);
    return { ...settingsMessage(settingsOf(row)), presets };
  };
}
