// A learner's settings as the service uses them: the stored row, or the defaults for a learner who has
// never changed anything; the desired retention and the FSRS-6 parameters come from their default preset.
import { DEFAULT_SETTINGS, type Settings } from '@engram/contracts/learning';
import { DEFAULT_PARAMETERS } from '@engram/contracts/scheduler';
import type { Settings as SettingsMessage } from '@engram/proto/cards/v1/settings';

/** A learner_settings row beside their default preset's columns: any may be null (nothing saved yet). */
export interface SettingsRow {
  timezone: string | null;
  day_start_hour: number;
  desired_retention: number | null;
  /** Empty or null: FSRS-6's defaults. */
  parameters: number[] | null;
  maximum_interval_days: number;
  learning_steps: string[];
  relearning_steps: string[];
  fuzz: boolean;
  daily_goal: number;
  easy_days: number[] | null;
  load_balance: boolean;
}

/** A learner's settings and the parameters their cards are scheduled with. */
export interface LearnerSettings extends Settings {
  parameters: readonly number[];
}

/** The settings of a learner, from their row (null: never saved, so the defaults). */
export function settingsOf(row: SettingsRow | null | undefined): LearnerSettings {
  const preset = {
    desiredRetention: row?.desired_retention ?? DEFAULT_SETTINGS.desiredRetention,
    parameters: row?.parameters?.length ? row.parameters : DEFAULT_PARAMETERS,
  };
  if (!row?.timezone) return { ...DEFAULT_SETTINGS, ...preset };
  return {
    timezone: row.timezone,
    dayStartHour: row.day_start_hour,
    maximumIntervalDays: row.maximum_interval_days,
    learningSteps: row.learning_steps,
    relearningSteps: row.relearning_steps,
    fuzz: row.fuzz,
    dailyGoal: row.daily_goal,
    easyDays: row.easy_days?.length === 7 ? row.easy_days : DEFAULT_SETTINGS.easyDays,
    loadBalance: row.load_balance,
    ...preset,
  };
}

/** The settings as the API answers them, but for the presets (presets/presets.ts). */
export function settingsMessage({
  parameters: _parameters,
  ...settings
}: LearnerSettings): Omit<SettingsMessage, 'presets'> {
  return settings;
}

/**
 * The columns a query joins to read a learner's settings, `s` their learner_settings row and `p` their default
 * preset (null columns when none are stored): see DEFAULT_PRESET_JOIN.
 */
export const SETTINGS_COLUMNS = `s.timezone, s.day_start_hour, p.desired_retention, p.parameters,
  s.maximum_interval_days, s.learning_steps, s.relearning_steps, s.fuzz, s.daily_goal, s.easy_days, s.load_balance`;

/** Joins `p`, the default preset of the learner `owner` names (a column or a parameter). */
export const defaultPresetJoin = (owner: string) => `LEFT JOIN presets p ON p.owner_id = ${owner} AND p.is_default`;
