// The settings' "presets" section: the learner's presets (the default one first), a new one, and for the one
// chosen its options (name, the tags it schedules, desired retention, daily limits), its memory model with the
// optimizer, the simulator with the recommended retention, and the offer to reschedule its cards once its
// retention or parameters changed.
import { PRESET_NAME_MAX_LENGTH } from '@engram/contracts/scheduling';
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { LoadMore } from '../../components/load-more';
import { SelectField } from '../../components/select-field';
import { NumberField, TextField } from '../../components/text-field';
import { tagsOptions } from '../../entities/cards/queries';
import { toastError } from '../../lib/errors';
import { useContractForm } from '../../lib/form';
import { m } from '../../lib/i18n';
import { queryClient } from '../../lib/query-client';
import { toast } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { OptimizerPanel } from './optimizer-panel';
import {
  fromPresetDraft,
  NEW_PER_DAY,
  type Preset,
  presetLabel,
  presetProblems,
  REVIEWS_PER_DAY,
  toPresetDraft,
} from './preset-draft';
import { RescheduleOffer } from './reschedule-offer';
import { RETENTION } from './settings-draft';
import { SimulatorPanel } from './simulator-panel';

/** After a preset changed: the settings (and the desired retention of the form above), and what is due. */
const refreshPresets = async () => {
  await queryClient.invalidateQueries({ queryKey: trpc.settings.pathKey() });
  await queryClient.invalidateQueries({ queryKey: trpc.cards.pathKey() });
};

function TagChoices({ value, onChange }: { value: string[]; onChange: (tagIds: string[]) => void }) {
  const tags = useInfiniteQuery(tagsOptions);
  const all = tags.data?.pages.flatMap((page) => page.items) ?? [];
  const chosen = new Set(value);
  return (
    <fieldset className="space-y-2 sm:col-span-2">
      <legend className="text-sm font-medium text-slate-700">{m.settings_preset_tags()}</legend>
      <p className="text-xs text-slate-500">{m.settings_preset_tags_hint()}</p>
      {tags.isSuccess && all.length === 0 && <p className="text-sm text-slate-600">{m.settings_preset_no_tags()}</p>}
      <ul className="flex flex-wrap gap-2">
        {all.map((tag) => (
          <li key={tag.id}>
            <label className="flex items-center gap-2 rounded-full bg-slate-50 px-3 py-1.5 text-sm text-slate-700 ring-1 ring-slate-200">
              <input
                type="checkbox"
                checked={chosen.has(tag.id)}
                onChange={(event) =>
                  onChange(event.target.checked ? [...value, tag.id] : value.filter((id) => id !== tag.id))
                }
                className="size-4 rounded border-slate-300 text-brand-600 focus:ring-brand-600"
              />
              {tag.name}
            </label>
          </li>
        ))}
      </ul>
      <LoadMore list={tags} />
    </fieldset>
  );
}

function PresetOptions({ preset, onChanged }: { preset: Preset; onChanged: () => void }) {
  const form = useContractForm({
    initial: () => toPresetDraft(preset),
    check: presetProblems,
    input: (draft) => fromPresetDraft(preset, draft),
    mutation: trpc.settings.updatePreset.mutationOptions(),
    saved: () => m.settings_preset_saved(),
    onSaved: (saved) => {
      if (saved.desiredRetention !== preset.desiredRetention) onChanged();
    },
    invalidate: refreshPresets,
  });
  const { draft, errors, set } = form;
  const [deleting, setDeleting] = useState(false);
  const remove = useMutation(
    trpc.settings.deletePreset.mutationOptions({
      onSuccess: async () => {
        setDeleting(false);
        toast.success(m.settings_preset_deleted());
        await refreshPresets();
      },
      onError: toastError,
    }),
  );
  return (
    <form onSubmit={form.submit} noValidate className="grid gap-5 sm:grid-cols-2">
      <h3 className="text-base font-semibold text-slate-900 sm:col-span-2">
        {m.settings_preset_options({ name: preset.name })}
      </h3>
      <TextField
        label={m.settings_preset_name()}
        name="presetName"
        value={draft.name}
        onChange={set('name')}
        maxLength={PRESET_NAME_MAX_LENGTH}
        error={errors.name}
      />
      <NumberField
        label={m.settings_retention()}
        name="presetRetention"
        inputMode="decimal"
        step={0.01}
        bounds={RETENTION}
        value={draft.desiredRetention}
        onChange={set('desiredRetention')}
        hint={m.settings_retention_hint(RETENTION)}
        error={errors.desiredRetention}
      />
      <NumberField
        label={m.settings_preset_new_per_day()}
        name="newPerDay"
        bounds={NEW_PER_DAY}
        value={draft.newPerDay}
        onChange={set('newPerDay')}
        hint={m.settings_preset_limit_hint(NEW_PER_DAY)}
        error={errors.newPerDay}
      />
      <NumberField
        label={m.settings_preset_reviews_per_day()}
        name="reviewsPerDay"
        bounds={REVIEWS_PER_DAY}
        value={draft.reviewsPerDay}
        onChange={set('reviewsPerDay')}
        hint={m.settings_preset_limit_hint(REVIEWS_PER_DAY)}
        error={errors.reviewsPerDay}
      />
      {preset.isDefault ? (
        <p className="text-sm text-slate-600 sm:col-span-2">{m.settings_preset_default_tags()}</p>
      ) : (
        <TagChoices value={draft.tagIds} onChange={set('tagIds')} />
      )}
      <div className="flex flex-wrap gap-3 sm:col-span-2">
        <Button type="submit" pending={form.pending}>
          {m.settings_preset_save()}
        </Button>
        {!preset.isDefault && (
          <Button variant="secondary" onClick={() => setDeleting(true)}>
            {m.settings_preset_delete()}
          </Button>
        )}
      </div>
      <ConfirmDialog
        open={deleting}
        title={m.settings_preset_delete_title({ name: preset.name })}
        text={m.settings_preset_delete_text()}
        confirmLabel={m.settings_preset_delete()}
        pending={remove.isPending}
        onConfirm={() => remove.mutate({ presetId: preset.id })}
        onCancel={() => setDeleting(false)}
      />
    </form>
  );
}

function NewPreset({ onCreated }: { onCreated: (id: string) => void }) {
  const [name, setName] = useState('');
  const [attempted, setAttempted] = useState(false);
  const trimmed = name.trim();
  const invalid = trimmed.length === 0 || trimmed.length > PRESET_NAME_MAX_LENGTH;
  const create = useMutation(
    trpc.settings.createPreset.mutationOptions({
      onSuccess: async (preset) => {
        setName('');
        setAttempted(false);
        toast.success(m.settings_preset_created());
        await refreshPresets();
        onCreated(preset.id);
      },
      onError: toastError,
    }),
  );
  return (
    <form
      noValidate
      className="flex flex-col gap-3 sm:flex-row sm:items-start"
      onSubmit={(event) => {
        event.preventDefault();
        setAttempted(true);
        if (!invalid) create.mutate({ name: trimmed });
      }}
    >
      <div className="flex-1">
        <TextField
          label={m.settings_preset_new_name()}
          name="newPresetName"
          value={name}
          onChange={setName}
          maxLength={PRESET_NAME_MAX_LENGTH}
          error={attempted && invalid ? m.settings_preset_name_invalid({ max: PRESET_NAME_MAX_LENGTH }) : undefined}
        />
      </div>
      <Button type="submit" variant="secondary" pending={create.isPending} className="sm:mt-7">
        {m.settings_preset_create()}
      </Button>
    </form>
  );
}

export function PresetsSection({ presets }: { presets: Preset[] }) {
  const [chosenId, setChosenId] = useState(presets[0]?.id ?? '');
  // Once the learner changed the preset's retention or parameters, the offer to reschedule its cards shows.
  const [changed, setChanged] = useState(false);
  const preset = presets.find(({ id }) => id === chosenId) ?? (presets[0] as Preset);
  const choose = (id: string) => {
    setChosenId(id);
    setChanged(false);
  };
  return (
    <section
      aria-labelledby="presets-heading"
      className="space-y-8 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
    >
      <div>
        <h2 id="presets-heading" className="text-lg font-semibold text-slate-900">
          {m.settings_presets_heading()}
        </h2>
        <p className="mt-1 text-sm text-slate-600">{m.settings_presets_intro()}</p>
      </div>
      {presets.length > 1 && (
        <SelectField label={m.settings_preset_choose()} name="preset" value={preset.id} onChange={choose}>
          {presets.map((each) => (
            <option key={each.id || 'default'} value={each.id}>
              {presetLabel(each)}
            </option>
          ))}
        </SelectField>
      )}
      <NewPreset onCreated={choose} />
      <PresetOptions
        key={`${preset.id}:${preset.desiredRetention}`}
        preset={preset}
        onChanged={() => setChanged(true)}
      />
      <OptimizerPanel key={`optimizer:${preset.id}`} preset={preset} onAdopted={() => setChanged(true)} />
      <SimulatorPanel key={`simulator:${preset.id}`} preset={preset} onApplied={() => setChanged(true)} />
      <RescheduleOffer
        key={`reschedule:${preset.id}`}
        preset={preset}
        offered={changed}
        onDone={() => setChanged(false)}
      />
    </section>
  );
}
