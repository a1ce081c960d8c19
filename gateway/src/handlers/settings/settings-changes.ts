// Saving some of the learner's settings, shared by settings.update and settings.completeOnboarding: the
// cards service reads only the fields named in the request.
import type { SettingsUpdateInput } from '@engram/contracts/learning';
import { Settings } from '@engram/proto/cards/v1/settings';
import { asUser } from '../../call.js';
import type { ProtectedContext } from '../../trpc.js';
import { type SettingsJson, settingsJson } from './json.js';

const FIELD_NAMES: Record<keyof SettingsUpdateInput, string> = {
  timezone: 'timezone',
  dayStartHour: 'day_start_hour',
  desiredRetention: 'desired_retention',
  maximumIntervalDays: 'maximum_interval_days',
  learningSteps: 'learning_steps',
  relearningSteps: 'relearning_steps',
  fuzz: 'fuzz',
  dailyGoal: 'daily_goal',
  easyDays: 'easy_days',
  loadBalance: 'load_balance',
};

export async function saveSettings(ctx: ProtectedContext, changes: SettingsUpdateInput): Promise<SettingsJson> {
  const fields = (Object.keys(changes) as (keyof SettingsUpdateInput)[])
    .filter((key) => changes[key] !== undefined)
    .map((key) => FIELD_NAMES[key]);
  // The service reads only the fields named; the others are protobuf's defaults and ignored.
  return settingsJson(
    await asUser(ctx).settings.updateSettings({
      fields,
      settings: Settings.fromPartial(changes),
    }),
  );
}
