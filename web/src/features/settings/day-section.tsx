// The settings' "day" section: the timezone and the hour the study day starts in it, and the daily goal.
import { DailyGoalField } from '../../components/daily-goal-field';
import { NumberField } from '../../components/text-field';
import { TimezoneField } from '../../components/timezone-field';
import { m } from '../../lib/i18n';
import { HOUR, type SettingsSection } from './settings-draft';

export function DaySection({ form: { draft, errors, set } }: { form: SettingsSection }) {
  return (
    <section className="grid gap-5 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2">
      <h2 className="text-lg font-semibold text-slate-900 sm:col-span-2">{m.settings_day_heading()}</h2>
      <TimezoneField
        label={m.settings_timezone()}
        value={draft.timezone}
        onChange={set('timezone')}
        error={errors.timezone}
      />
      <NumberField
        label={m.settings_day_start()}
        name="dayStartHour"
        bounds={HOUR}
        value={draft.dayStartHour}
        onChange={set('dayStartHour')}
        hint={m.settings_day_start_hint()}
        error={errors.dayStartHour}
      />
      <DailyGoalField value={draft.dailyGoal} onChange={set('dailyGoal')} error={errors.dailyGoal} />
    </section>
  );
}
