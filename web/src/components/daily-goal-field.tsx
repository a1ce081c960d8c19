// The daily goal (cards a day), asked for by onboarding and by the settings, within the settings
// contract's bounds.
import { settingsFields } from '@engram/contracts/learning';
import { bounds } from '../lib/form';
import { m } from '../lib/i18n';
import { NumberField } from './text-field';

export const DAILY_GOAL = bounds(settingsFields.dailyGoal);

type DailyGoalFieldProps = { value: string; onChange: (value: string) => void; error?: string | undefined };

export function DailyGoalField({ value, onChange, error }: DailyGoalFieldProps) {
  return (
    <NumberField
      label={m.settings_daily_goal()}
      name="dailyGoal"
      bounds={DAILY_GOAL}
      value={value}
      onChange={onChange}
      hint={m.settings_daily_goal_hint(DAILY_GOAL)}
      error={error}
    />
  );
}
