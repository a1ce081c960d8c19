// The settings' "scheduling" section: what the scheduler is asked for (desired retention, maximum
// interval), the (re)learning steps and whether intervals are fuzzed.
import { NumberField, TextField } from '../../components/text-field';
import { m } from '../../lib/i18n';
import { INTERVAL, RETENTION, type SettingsSection } from './settings-draft';

export function SchedulingSection({ form: { draft, errors, set } }: { form: SettingsSection }) {
  return (
    <section className="grid gap-5 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2">
      <h2 className="text-lg font-semibold text-slate-900 sm:col-span-2">{m.settings_scheduling_heading()}</h2>
      <NumberField
        label={m.settings_retention()}
        name="desiredRetention"
        inputMode="decimal"
        step={0.01}
        bounds={RETENTION}
        value={draft.desiredRetention}
        onChange={set('desiredRetention')}
        hint={m.settings_retention_hint(RETENTION)}
        error={errors.desiredRetention}
      />
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
    </section>
  );
}
