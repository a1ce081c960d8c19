// A learner's settings as the service uses them: the stored row, or the defaults for a learner who has
// never changed anything.
import { DEFAULT_SETTINGS, type Settings } from '@engram/contracts/learning';
import type { Settings as SettingsMessage } from '@engram/proto/cards/v1/settings';

export interface SettingsRow {
  timezone: string;
  day_start_hour: number;
  desired_retention: number;
  maximum_interval_days: number;
  learning_steps: string[];
  relearning_steps: string[];
  fuzz: boolean;
  daily_goal: number;
}

/** The settings of a learner, from their row (null: never saved, so the defaults). */
export function settingsOf(row: SettingsRow | null | undefined): Settings {
  if (!row?.timezone) return { ...DEFAULT_SETTINGS };
  return {
    timezone: row.timezone,
    dayStartHour: row.day_start_hour,
    desiredRetention: row.desired_retention,
    maximumIntervalDays: row.maximum_interval_days,
    learningSteps: row.learning_steps,
    relearningSteps: row.relearning_steps,
    fuzz: row.fuzz,
    dailyGoal: row.daily_goal,
  };
}

export function settingsMessage(settings: Settings): SettingsMessage {
  return { ...settings };
}

/** The columns a query joins to read a learner's settings (null columns when none are stored). */
export const SETTINGS_COLUMNS = `s.timezone, s.day_start_hour, s.desired_retention, s.maximum_interval_days,
  s.learning_steps, s.relearning_steps, s.fuzz, s.daily_goal`;
