// The settings form's draft (each field as typed), what settings.update takes of it, and its problem
// function: the contract's schema field by field, each message naming the schema's own bounds.
import { type Settings, settingsFields, settingsUpdateInput } from '@engram/contracts/learning';
import { DAILY_GOAL } from '../../components/daily-goal-field';
import { bounds, type FieldErrors, type FormSection, fieldErrors, parseNumber } from '../../lib/form';
import { m } from '../../lib/i18n';

export const HOUR = bounds(settingsFields.dayStartHour);
export const RETENTION = bounds(settingsFields.desiredRetention);
export const INTERVAL = bounds(settingsFields.maximumIntervalDays);

const MESSAGES = {
  timezone: m.settings_timezone_invalid,
  dayStartHour: () => m.settings_day_start_invalid(HOUR),
  maximumIntervalDays: () => m.settings_max_interval_invalid(INTERVAL),
  learningSteps: m.settings_steps_invalid,
  relearningSteps: m.settings_steps_invalid,
  fuzz: m.settings_fuzz_invalid,
  easyDays: m.settings_easy_days_invalid,
  loadBalance: m.settings_load_balance_invalid,
  dailyGoal: () => m.settings_daily_goal_invalid(DAILY_GOAL),
};

type Chosen = 'fuzz' | 'loadBalance' | 'easyDays';

/**
 * The fields typed as text, and those chosen (switches, and each weekday's share). The desired retention is not
 * among them: it is a preset's, set in the presets section (presets-section.tsx).
 */
export type SettingsDraft = Record<Exclude<keyof Settings, Chosen | 'desiredRetention'>, string> &
  Pick<Settings, Chosen>;

/** What a section of the settings form gets of it. */
export type SettingsSection = FormSection<SettingsDraft>;

export const toDraft = (settings: Settings): SettingsDraft => ({
  timezone: settings.timezone,
  dayStartHour: String(settings.dayStartHour),
  maximumIntervalDays: String(settings.maximumIntervalDays),
  learningSteps: settings.learningSteps.join(' '),
  relearningSteps: settings.relearningSteps.join(' '),
  fuzz: settings.fuzz,
  easyDays: settings.easyDays,
  loadBalance: settings.loadBalance,
  dailyGoal: String(settings.dailyGoal),
});

const steps = (text: string) => text.split(/[\s,]+/).filter(Boolean);

export const fromDraft = (draft: SettingsDraft): Omit<Settings, 'desiredRetention'> => ({
  timezone: draft.timezone.trim(),
  dayStartHour: parseNumber(draft.dayStartHour),
  maximumIntervalDays: parseNumber(draft.maximumIntervalDays),
  learningSteps: steps(draft.learningSteps),
  relearningSteps: steps(draft.relearningSteps),
  fuzz: draft.fuzz,
  easyDays: draft.easyDays,
  loadBalance: draft.loadBalance,
  dailyGoal: parseNumber(draft.dailyGoal),
});

export const settingsProblems = (draft: SettingsDraft): FieldErrors<keyof SettingsDraft> =>
  fieldErrors(settingsUpdateInput, fromDraft(draft), MESSAGES);
