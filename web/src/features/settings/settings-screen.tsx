// /settings: timezone, day start, desired retention, maximum interval, (re)learning steps, fuzz and the
// daily goal, checked with the contract's schema field by field before settings.update saves them.
import { type Settings, settingsFields, settingsUpdateInput } from '@engram/contracts/learning';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/button';
import { InlineError, InlineLoading } from '../../components/query-states';
import { TextField } from '../../components/text-field';
import { TimezoneField } from '../../components/timezone-field';
import { toastError } from '../../lib/errors';
import { bounds, fieldErrors, hasErrors, parseNumber } from '../../lib/form';
import { m } from '../../lib/i18n';
import { queryClient } from '../../lib/query-client';
import { toast } from '../../lib/toast';
import { trpc } from '../../lib/trpc';

const HOUR = bounds(settingsFields.dayStartHour);
const RETENTION = bounds(settingsFields.desiredRetention);
const INTERVAL = bounds(settingsFields.maximumIntervalDays);
const GOAL = bounds(settingsFields.dailyGoal);

const MESSAGES = {
  timezone: m.settings_timezone_invalid,
  dayStartHour: () => m.settings_day_start_invalid(HOUR),
  desiredRetention: () => m.settings_retention_invalid(RETENTION),
  maximumIntervalDays: () => m.settings_max_interval_invalid(INTERVAL),
  learningSteps: m.settings_steps_invalid,
  relearningSteps: m.settings_steps_invalid,
  fuzz: m.settings_fuzz_invalid,
  dailyGoal: () => m.settings_daily_goal_invalid(GOAL),
};

type Form = Record<Exclude<keyof Settings, 'fuzz'>, string> & { fuzz: boolean };

const toForm = (settings: Settings): Form => ({
  timezone: settings.timezone,
  dayStartHour: String(settings.dayStartHour),
  desiredRetention: String(settings.desiredRetention),
  maximumIntervalDays: String(settings.maximumIntervalDays),
  learningSteps: settings.learningSteps.join(' '),
  relearningSteps: settings.relearningSteps.join(' '),
  fuzz: settings.fuzz,
  dailyGoal: String(settings.dailyGoal),
});

const steps = (text: string) => text.split(/[\s,]+/).filter(Boolean);

const fromForm = (form: Form): Settings => ({
  timezone: form.timezone.trim(),
  dayStartHour: parseNumber(form.dayStartHour),
  desiredRetention: parseNumber(form.desiredRetention),
  maximumIntervalDays: parseNumber(form.maximumIntervalDays),
  learningSteps: steps(form.learningSteps),
  relearningSteps: steps(form.relearningSteps),
  fuzz: form.fuzz,
  dailyGoal: parseNumber(form.dailyGoal),
});

function SettingsForm({ initial }: { initial: Settings }) {
  const [form, setForm] = useState(() => toForm(initial));
  const [submitted, setSubmitted] = useState(false);
  const errors = submitted ? fieldErrors(settingsUpdateInput, fromForm(form), MESSAGES) : {};
  const set = (key: keyof Form) => (value: string) => setForm((current) => ({ ...current, [key]: value }));

  const save = useMutation(
    trpc.settings.update.mutationOptions({
      onSuccess: async () => {
        toast.success(m.settings_saved());
        await queryClient.invalidateQueries({ queryKey: trpc.settings.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.cards.pathKey() });
      },
      onError: toastError,
    }),
  );

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    const values = fromForm(form);
    if (hasErrors(fieldErrors(settingsUpdateInput, values, MESSAGES))) return;
    save.mutate(values);
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      <section className="grid gap-5 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2">
        <h2 className="text-lg font-semibold text-slate-900 sm:col-span-2">{m.settings_day_heading()}</h2>
        <TimezoneField
          label={m.settings_timezone()}
          value={form.timezone}
          onChange={set('timezone')}
          error={errors.timezone}
        />
        <TextField
          label={m.settings_day_start()}
          name="dayStartHour"
          type="number"
          inputMode="numeric"
          min={HOUR.min}
          max={HOUR.max}
          value={form.dayStartHour}
          onChange={set('dayStartHour')}
          hint={m.settings_day_start_hint()}
          error={errors.dayStartHour}
        />
        <TextField
          label={m.settings_daily_goal()}
          name="dailyGoal"
          type="number"
          inputMode="numeric"
          min={GOAL.min}
          max={GOAL.max}
          value={form.dailyGoal}
          onChange={set('dailyGoal')}
          hint={m.settings_daily_goal_hint(GOAL)}
          error={errors.dailyGoal}
        />
      </section>
      <section className="grid gap-5 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2">
        <h2 className="text-lg font-semibold text-slate-900 sm:col-span-2">{m.settings_scheduling_heading()}</h2>
        <TextField
          label={m.settings_retention()}
          name="desiredRetention"
          type="number"
          inputMode="decimal"
          step={0.01}
          min={RETENTION.min}
          max={RETENTION.max}
          value={form.desiredRetention}
          onChange={set('desiredRetention')}
          hint={m.settings_retention_hint(RETENTION)}
          error={errors.desiredRetention}
        />
        <TextField
          label={m.settings_max_interval()}
          name="maximumIntervalDays"
          type="number"
          inputMode="numeric"
          min={INTERVAL.min}
          max={INTERVAL.max}
          value={form.maximumIntervalDays}
          onChange={set('maximumIntervalDays')}
          hint={m.settings_max_interval_hint()}
          error={errors.maximumIntervalDays}
        />
        <TextField
          label={m.settings_learning_steps()}
          name="learningSteps"
          value={form.learningSteps}
          onChange={set('learningSteps')}
          hint={m.settings_steps_hint()}
          error={errors.learningSteps}
        />
        <TextField
          label={m.settings_relearning_steps()}
          name="relearningSteps"
          value={form.relearningSteps}
          onChange={set('relearningSteps')}
          hint={m.settings_steps_hint()}
          error={errors.relearningSteps}
        />
        <label className="flex items-start gap-3 sm:col-span-2">
          <input
            type="checkbox"
            name="fuzz"
            checked={form.fuzz}
            onChange={(event) => setForm((current) => ({ ...current, fuzz: event.target.checked }))}
            className="mt-0.5 size-4 rounded border-slate-300 text-brand-600 focus:ring-brand-600"
          />
          <span>
            <span className="block text-sm font-medium text-slate-700">{m.settings_fuzz()}</span>
            <span className="block text-xs text-slate-500">{m.settings_fuzz_hint()}</span>
          </span>
        </label>
      </section>
      <Button type="submit" pending={save.isPending}>
        {m.settings_save()}
      </Button>
    </form>
  );
}

export function SettingsScreen() {
  const settings = useQuery(trpc.settings.get.queryOptions());
  return (
    <main id="main" tabIndex={-1} className="mx-auto max-w-3xl px-6 py-10">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{m.settings_title()}</h1>
      <p className="mt-1 mb-8 text-sm text-slate-600">{m.settings_intro()}</p>
      {settings.isPending ? (
        <InlineLoading label={m.settings_loading()} />
      ) : settings.isError ? (
        <InlineError message={m.settings_load_failed()} onRetry={() => void settings.refetch()} />
      ) : (
        <SettingsForm initial={settings.data} />
      )}
    </main>
  );
}
