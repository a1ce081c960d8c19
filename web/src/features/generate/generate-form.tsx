// What to generate from and how: pasted notes or an uploaded file, the number of cards, their types, the
// language and an optional focus. Checked here with the contract's limits before anything is sent: a number
// of cards outside them shows a message under the field instead of being sent (or quietly changed).
import { GENERATE_COUNT_DEFAULT, GENERATE_COUNT_MAX, type GenerateInput, NOTES_MIN_LENGTH } from '@engram/contracts/ai';
import { CARD_TYPES, type CardType } from '@engram/contracts/learning';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/button';
import { cardTypeLabel } from '../../components/card/card-type-label';
import { TextField } from '../../components/text-field';
import { m } from '../../lib/i18n';
import { countOf } from './drafts';
import { FileDrop, type UploadedFile } from './file-drop';

type GenerateFormProps = { running: boolean; onGenerate: (input: GenerateInput) => void; onStop: () => void };

export function GenerateForm({ running, onGenerate, onStop }: GenerateFormProps) {
  const [notes, setNotes] = useState('');
  const [file, setFile] = useState<UploadedFile>();
  const [count, setCount] = useState(String(GENERATE_COUNT_DEFAULT));
  const [types, setTypes] = useState<CardType[]>([...CARD_TYPES]);
  const [language, setLanguage] = useState('');
  const [focus, setFocus] = useState('');
  const [submitted, setSubmitted] = useState(false);

  const notesError =
    submitted && !file && notes.trim().length < NOTES_MIN_LENGTH
      ? m.generate_notes_too_short({ min: NOTES_MIN_LENGTH })
      : undefined;
  const typesError = submitted && types.length === 0 ? m.generate_types_needed() : undefined;
  const number = countOf(count);
  const countError =
    (submitted || count.trim() !== '') && number === undefined
      ? m.generate_count_invalid({ max: GENERATE_COUNT_MAX })
      : undefined;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    if ((!file && notes.trim().length < NOTES_MIN_LENGTH) || types.length === 0 || number === undefined) return;
    onGenerate({
      ...(file ? { fileId: file.fileId } : { notes }),
      count: number,
      types,
      ...(language && { language }),
      ...(focus.trim() && { focus: focus.trim() }),
    });
  }

  const toggle = (type: CardType, on: boolean) =>
    setTypes((current) =>
      on ? CARD_TYPES.filter((t) => t === type || current.includes(t)) : current.filter((t) => t !== type),
    );

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {!file && (
        <TextField
          label={m.generate_notes_label()}
          name="notes"
          multiline
          rows={10}
          placeholder={m.generate_notes_placeholder()}
          value={notes}
          onChange={setNotes}
          error={notesError}
        />
      )}
      <FileDrop value={file} onChange={setFile} />
      <div className="grid grid-cols-2 gap-3">
        <TextField
          label={m.generate_count_label()}
          name="count"
          type="number"
          min={1}
          max={GENERATE_COUNT_MAX}
          value={count}
          onChange={setCount}
          error={countError}
        />
        <label className="block space-y-1.5 text-sm font-medium text-slate-700">
          <span>{m.generate_language_label()}</span>
          <select
            value={language}
            onChange={(event) => setLanguage(event.target.value)}
            className="block w-full rounded-lg border-0 bg-white px-3 py-2.5 text-sm font-normal text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset"
          >
            <option value="">{m.generate_language_auto()}</option>
            <option value="en">{m.generate_language_en()}</option>
            <option value="pt-BR">{m.generate_language_pt()}</option>
          </select>
        </label>
      </div>
      <fieldset aria-describedby={typesError ? 'generate-types-error' : undefined}>
        <legend className="text-sm font-medium text-slate-700">{m.generate_types_label()}</legend>
        <div className="mt-1.5 flex flex-wrap gap-4">
          {CARD_TYPES.map((type) => (
            <label key={type} className="inline-flex items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                checked={types.includes(type)}
                onChange={(event) => toggle(type, event.target.checked)}
                className="size-4 rounded border-slate-300 text-brand-600"
              />
              {cardTypeLabel(type)}
            </label>
          ))}
        </div>
        {typesError && (
          <p id="generate-types-error" className="mt-1 text-sm text-red-600">
            {typesError}
          </p>
        )}
      </fieldset>
      <TextField
        label={m.generate_focus_label()}
        name="focus"
        placeholder={m.generate_focus_placeholder()}
        value={focus}
        onChange={setFocus}
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
