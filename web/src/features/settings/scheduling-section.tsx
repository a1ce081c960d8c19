// The settings' "scheduling" section: what the scheduler is asked for (the maximum interval; the desired
// retention is each preset's, in the presets section), the (re)learning steps, whether intervals are fuzzed, and how reviews are spread within fuzz: load
// balancing and easy days.

import { SelectField } from '../../components/select-field';
import { NumberField, TextField } from '../../components/text-field';
import { percent } from '../../entities/shared-decks/shared-decks';
import { getLocale, m } from '../../lib/i18n';
import { INTERVAL, type SettingsSection } from './settings-draft';

/** The shares a weekday may take, as the picker names them; another stored share shows as itself. */
const SHARES = [
  { share: 1, label: () => m.settings_easy_day_usual() },
  { share: 0.5, label: () => m.settings_easy_day_lighter() },
  { share: 0, label: () => m.settings_easy_day_off() },
];

/** Monday … Sunday in the user's language (1 January 2024 was a Monday). */
const weekdays = () =>
  Array.from({ length: 7 }, (_, index) =>
    new Intl.DateTimeFormat(getLocale(), { weekday: 'long', timeZone: 'UTC' }).format(
      new Date(Date.UTC(2024, 0, 1 + index)),
    ),
  );

function EasyDays({ value, onChange }: { value: number[]; onChange: (easyDays: number[]) => void }) {
  return (
    <fieldset className="space-y-3 sm:col-span-2">
      <legend className="text-sm font-medium text-slate-700">{m.settings_easy_days()}</legend>
      <p className="text-xs text-slate-500">{m.settings_easy_days_hint()}</p>
      <div className="grid gap-3 sm:grid-cols-2">
        {weekdays().map((day, index) => {
          const share = value[index] ?? 1;
          return (
            <SelectField
              key={day}
              label={day}
              name={`easyDay${index}`}
              value={String(share)}
              onChange={(chosen) => onChange(value.map((each, at) => (at === index ? Number(chosen) : each)))}
            >
              {SHARES.map((option) => (
                <option key={option.share} value={String(option.share)}>
                  {option.label()}
                </option>
              ))}
              {!SHARES.some((option) => option.share === share) && (
                <option value={String(share)}>{m.settings_easy_day_share({ percent: percent(share) })}</option>
              )}
            </SelectField>
          );
        })}
      </div>
    </fieldset>
  );
}

export function SchedulingSection({ form: { draft, errors, set } }: { form: SettingsSection }) {
  return (
    <section className="grid gap-5 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2">
      <h2 className="text-lg font-semibold text-slate-900 sm:col-span-2">{m.settings_scheduling_heading()}</h2>
      <NumberField
        label={m.settings_max_interval()}
        name="maximumIntervalDays"
        bounds={INTERVAL}
        value={draft.maximumIntervalDays}
        onChange={set('maximumIntervalDays')}
        hint={m.settings_max_interval_hint()}
        error={errors.maximumIntervalDays}
      />
      <TextField
        label={m.settings_learning_steps()}
        name="learningSteps"
        value={draft.learningSteps}
        onChange={set('learningSteps')}
        hint={m.settings_steps_hint()}
        error={errors.learningSteps}
      />
      <TextField
        label={m.settings_relearning_steps()}
        name="relearningSteps"
        value={draft.relearningSteps}
        onChange={set('relearningSteps')}
        hint={m.settings_steps_hint()}
        error={errors.relearningSteps}
      />
      <label className="flex items-start gap-3 sm:col-span-2">
        <input
          type="checkbox"
          name="fuzz"
          checked={draft.fuzz}
          onChange={(event) => set('fuzz')(event.target.checked)}
          className="mt-0.5 size-4 rounded border-slate-300 text-brand-600 focus:ring-brand-600"
        />
        <span>
          <span className="block text-sm font-medium text-slate-700">{m.settings_fuzz()}</span>
          <span className="block text-xs text-slate-500">{m.settings_fuzz_hint()}</span>
        </span>
      </label>
      <label className="flex items-start gap-3 sm:col-span-2">
        <input
          type="checkbox"
          name="loadBalance"
          checked={draft.loadBalance}
          onChange={(event) => set('loadBalance')(event.target.checked)}
          className="mt-0.5 size-4 rounded border-slate-300 text-brand-600 focus:ring-brand-600"
        />
        <span>
          <span className="block text-sm font-medium text-slate-700">{m.settings_load_balance()}</span>
          <span className="block text-xs text-slate-500">{m.settings_load_balance_hint()}</span>
        </span>
      </label>
      <EasyDays value={draft.easyDays} onChange={set('easyDays')} />
    </section>
  );
}
