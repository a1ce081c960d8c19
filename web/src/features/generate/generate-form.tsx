// What to generate from and how: pasted notes or an uploaded file, the number of cards, their types, the
// language and an optional focus. Checked here with the contract's limits before anything is sent: a number
// of cards outside them shows a message under the field instead of being sent (or quietly changed). The notes
// and choices are kept for the learner like the proposals (entities/generation/draft-store.ts): leaving the page,
// a reload or a closed tab loses nothing typed.
import {
  GENERATE_COUNT_DEFAULT,
  GENERATE_COUNT_MAX,
  GENERATED_CARD_TYPES,
  type GeneratedCardType,
  type GenerateInput,
  NOTES_MIN_LENGTH,
} from '@engram/contracts/ai';
import { useEffect } from 'react';
import { Button } from '../../components/button';
import { cardTypeLabel } from '../../components/card/card-type-label';
import { TextField } from '../../components/text-field';
import { clearNotesDraft, loadNotesDraft, saveNotesDraft } from '../../entities/generation/draft-store';
import { type FieldErrors, useFormDraft } from '../../lib/form';
import { m } from '../../lib/i18n';
import { countOf, notesFromStored, toStoredNotes } from './drafts';
import { FileDrop, type UploadedFile } from './file-drop';

type GenerateFormProps = {
  userId: string;
  running: boolean;
  onGenerate: (input: GenerateInput) => void;
  onStop: () => void;
};

type Draft = {
  notes: string;
  file: UploadedFile | undefined;
  count: string;
  types: GeneratedCardType[];
  language: string;
  focus: string;
};

const INITIAL: Draft = {
  notes: '',
  file: undefined,
  count: String(GENERATE_COUNT_DEFAULT),
  types: [...GENERATED_CARD_TYPES],
  language: '',
  focus: '',
};

function generateProblems(draft: Draft): FieldErrors<'notes' | 'count' | 'types'> {
  return {
    ...(!draft.file &&
      draft.notes.trim().length < NOTES_MIN_LENGTH && { notes: m.generate_notes_too_short({ min: NOTES_MIN_LENGTH }) }),
    ...(countOf(draft.count) === undefined && { count: m.generate_count_invalid({ max: GENERATE_COUNT_MAX }) }),
    ...(draft.types.length === 0 && { types: m.generate_types_needed() }),
  };
}

/** What is asked of the generator, for a draft its check passed (so its count is a number). */
const toInput = ({ file, notes, count, types, language, focus }: Draft): GenerateInput => ({
  ...(file ? { fileId: file.fileId } : { notes }),
  count: countOf(count)!,
  types,
  ...(language && { language }),
  ...(focus.trim() && { focus: focus.trim() }),
});

export function GenerateForm({ userId, running, onGenerate, onStop }: GenerateFormProps) {
  // The draft half of the form hook only: what it sends is a generation the screen follows (useGeneration).
  // A number of cards typed out of range says so at once; the other messages wait for a first attempt.
  const { draft, errors, set, setDraft, submitWith } = useFormDraft({
    initial: () => ({ ...INITIAL, ...notesFromStored(loadNotesDraft(userId)) }),
    check: generateProblems,
    eager: ['count'],
  });

  // Stored at each change, so that closing the tab at once loses nothing (a few kilobytes, well under a millisecond).
  const { notes, count, types, language, focus } = draft;
  useEffect(() => {
    const stored = toStoredNotes({ notes, count, types, language, focus });
    if (stored) saveNotesDraft(userId, stored);
    else clearNotesDraft(userId);
  }, [userId, notes, count, types, language, focus]);

  const toggle = (type: GeneratedCardType, on: boolean) =>
    setDraft((current) => ({
      ...current,
      types: on
        ? GENERATED_CARD_TYPES.filter((t) => t === type || current.types.includes(t))
        : current.types.filter((t) => t !== type),
    }));

  return (
    <form onSubmit={submitWith((sent) => onGenerate(toInput(sent)))} noValidate className="space-y-4">
      {!draft.file && (
        <TextField
          label={m.generate_notes_label()}
          name="notes"
          multiline
          rows={10}
          placeholder={m.generate_notes_placeholder()}
          value={draft.notes}
          onChange={set('notes')}
          error={errors.notes}
        />
      )}
      <FileDrop value={draft.file} onChange={set('file')} />
      <div className="grid grid-cols-2 gap-3">
        <TextField
          label={m.generate_count_label()}
          name="count"
          type="number"
          min={1}
          max={GENERATE_COUNT_MAX}
          value={draft.count}
          onChange={set('count')}
          error={errors.count}
        />
        <label className="block space-y-1.5 text-sm font-medium text-slate-700">
          <span>{m.generate_language_label()}</span>
          <select
            value={draft.language}
            onChange={(event) => set('language')(event.target.value)}
            className="block w-full rounded-lg border-0 bg-white px-3 py-2.5 text-sm font-normal text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset"
          >
            <option value="">{m.generate_language_auto()}</option>
            <option value="en">{m.generate_language_en()}</option>
            <option value="pt-BR">{m.generate_language_pt()}</option>
          </select>
        </label>
      </div>
      <fieldset aria-describedby={errors.types ? 'generate-types-error' : undefined}>
        <legend className="text-sm font-medium text-slate-700">{m.generate_types_label()}</legend>
        <div className="mt-1.5 flex flex-wrap gap-4">
          {GENERATED_CARD_TYPES.map((type) => (
            <label key={type} className="inline-flex items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                checked={draft.types.includes(type)}
                onChange={(event) => toggle(type, event.target.checked)}
                className="size-4 rounded border-slate-300 text-brand-600"
              />
              {cardTypeLabel(type)}
            </label>
          ))}
        </div>
        {errors.types && (
          <p id="generate-types-error" className="mt-1 text-sm text-red-600">
            {errors.types}
          </p>
        )}
      </fieldset>
      <TextField
        label={m.generate_focus_label()}
        name="focus"
        placeholder={m.generate_focus_placeholder()}
        value={draft.focus}
        onChange={set('focus')}
      />
      <div className="flex gap-3">
        <Button type="submit" pending={running} className="flex-1">
          {m.generate_submit()}
        </Button>
        {running && (
          <Button variant="secondary" onClick={onStop}>
            {m.generate_stop()}
          </Button>
        )}
      </div>
    </form>
  );
}
