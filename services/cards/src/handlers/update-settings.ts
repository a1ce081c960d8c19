// UpdateSettings: changes only the fields the request names, checked against the shared limits.
import { type settingsFields, settingsUpdateInput } from '@engram/contracts/learning';
import { inTransaction } from '@engram/kit/db';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { Settings, UpdateSettingsRequest } from '@engram/proto/cards/v1/settings';
import type { Stores } from '../db.js';
import { settingsMessage, settingsOf } from '../learner/settings.js';
import { readSettings, writeSettings } from '../learner/settings-store.js';
import { recountReviewDays, settingsLockKey } from '../learner/study-days.js';
import { presetMessages } from '../presets/presets.js';

const FIELD_NAMES: Record<string, keyof typeof settingsFields> = {
  timezone: 'timezone',
  day_start_hour: 'dayStartHour',
  desired_retention: 'desiredRetention',
  maximum_interval_days: 'maximumIntervalDays',
  learning_steps: 'learningSteps',
  relearning_steps: 'relearningSteps',
  fuzz: 'fuzz',
  daily_goal: 'dailyGoal',
  easy_days: 'easyDays',
  load_balance: 'loadBalance',
};

export function updateSettings({ db, pool }: Stores) {
  return async (request: UpdateSettingsRequest, ctx: CallContext): Promise<Settings> => {
    const ownerId = ctx.caller.userId;
    const named = Object.fromEntries(
      request.fields.flatMap((field) => {
        const key = FIELD_NAMES[field];
        return key && request.settings ? [[key, request.settings[key]]] : [];
      }),
    );
    const changes = parseInput(settingsUpdateInput, named);
    const settings = await inTransaction(pool, async (client) => {
      // Serialises concurrent partial updates of one learner, so neither loses the other's fields, and
      // waits for their reviews and undos in flight (they share it), so the recount below includes them.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [settingsLockKey(ownerId)]);
      const before = settingsOf(await readSettings(client, ownerId));
      const settings = { ...before, ...changes };
      await writeSettings(client, ownerId, settings);
      // The learner's days begin at other instants now: their reviews are counted into them again.
      if (settings.timezone !== before.timezone || settings.dayStartHour !== before.dayStartHour) {
        await recountReviewDays(client, ownerId);
      }
      return settings;
    });
    return { ...settingsMessage(settings), presets: await presetMessages(db, ownerId) };
  };
}
