// GetSettings: the caller's scheduling settings (defaults until they change one).
import type { CallContext } from '@engram/kit/grpc/server';
import type { GetSettingsRequest, Settings } from '@engram/proto/cards/v1/settings';
import type { Stores } from '../db.js';
import { settingsMessage, settingsOf } from '../domain/settings.js';
import { readSettings } from '../review/settings-store.js';

export function getSettings({ pool }: Stores) {
  return async (_request: GetSettingsRequest, ctx: CallContext): Promise<Settings> =>
    settingsMessage(settingsOf(await readSettings(pool, ctx.caller.userId)));
}
