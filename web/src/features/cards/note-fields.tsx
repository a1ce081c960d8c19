// A note's fields in the card forms (issue 45): the note type it is of (Basic (optional reversed card) or one of
// the learner's own; the stock types made of a card type are the form's other choices), then a text area per field,
// named by the field, each taking pictures and sounds as a card's sides do. The first field says what keeps the
// note from being saved (empty, or filling no card template), in the cards service's words.
import { CARD_SIDE_MAX_LENGTH } from '@engram/contracts/cards';
import type { NoteTypeShape } from '@engram/contracts/note-types';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { SelectField } from '../../components/select-field';
import { TextField } from '../../components/text-field';
import { fieldNoteTypes, type NoteType, noteTypesOptions } from '../../entities/note-types/queries';
import { m } from '../../lib/i18n';
import type { CardDraft, CardDraftErrors } from './card-draft';
import { AddFileButton, type Side, SideFiles, useCardFiles, withFile } from './card-files';
import { withoutFile } from './side-files';

const shapeOf = (type: NoteType): NoteTypeShape => ({
  name: type.name,
  kind: type.kind,
  fields: type.fields,
  templates: type.templates,
});

/** The draft as a note of `type`: the values it had kept by position (a card's front and back, if it was one). */
export function asNoteOf(draft: CardDraft, type: NoteType): CardDraft {
  const before = draft.note?.fields ?? [draft.front, draft.back];
  const fields = type.fields.map((_, index) => before[index] ?? '');
  return {
    ...draft,
    type: 'note',
    front: fields[0] ?? '',
    back: '',
    note: { id: type.id, type: shapeOf(type), fields },
  };
}

type NoteFieldsProps = {
  draft: CardDraft;
  errors: CardDraftErrors;
  onChange: (draft: CardDraft) => void;
  firstRef?: React.Ref<HTMLInputElement & HTMLTextAreaElement> | undefined;
};

export function NoteFields({ draft, errors, onChange, firstRef }: NoteFieldsProps) {
  const types = useQuery(noteTypesOptions);
  const choices = fieldNoteTypes(types.data?.items ?? []);
  const chosen = choices.find((type) => type.id === draft.note?.id);
  // A file arrives after the learner may have typed more: it is added to the draft as it is then.
  const latest = useRef(draft);
  latest.current = draft;
  const setField = (index: number, value: string) => {
    const current = latest.current;
    if (!current.note) return;
    const fields = current.note.fields.map((field, at) => (at === index ? value : field));
    onChange({ ...current, front: fields[0] ?? '', note: { ...current.note, fields } });
  };
  const files = useCardFiles<Side>((side, markdown) => {
    const index = Number(side.slice('field-'.length));
    setField(index, withFile(latest.current.note?.fields[index] ?? '', markdown));
  });
  // The note type chosen first (or, editing a note, its type as the server now has it) once the list is here.
  useEffect(() => {
    const current = latest.current;
    const first = choices[0];
    if (!current.note && first) onChange(asNoteOf(current, first));
    else if (chosen && current.note && JSON.stringify(current.note.type) !== JSON.stringify(shapeOf(chosen))) {
      onChange(asNoteOf(current, chosen));
    }
  }, [choices, chosen, onChange]);

  if (types.isSuccess && choices.length === 0) return null;
  const note = draft.note;
  return (
    <div className="space-y-4">
      <div className="space-y-1">
        <SelectField
          label={m.cards_note_type()}
          name="noteType"
          value={note?.id ?? ''}
          onChange={(id) => {
            const type = choices.find((each) => each.id === id);
            if (type) onChange(asNoteOf(draft, type));
          }}
        >
          {choices.map((type) => (
            <option key={type.id} value={type.id}>
              {type.name}
            </option>
          ))}
        </SelectField>
        <Link
          to="/settings"
          search={{ section: 'note-types' }}
          className="text-xs font-medium text-brand-700 hover:text-brand-800"
        >
          {m.cards_note_types_manage()}
        </Link>
      </div>
      {note?.type.fields.map((name, index) => {
        const side: Side = `field-${index}`;
        const value = note.fields[index] ?? '';
        return (
          <div key={`${note.id}:${name}`} className="space-y-2">
            <TextField
              label={name}
              name={`field-${index}`}
              multiline
              rows={2}
              value={value}
              onChange={(text) => setField(index, text)}
              error={index === 0 ? errors.front : undefined}
              hint={index === 0 ? m.cards_markdown_hint() : undefined}
              maxLength={CARD_SIDE_MAX_LENGTH}
              {...(index === 0 && firstRef ? { ref: firstRef } : {})}
              {...files.handlers(side)}
            />
            <SideFiles
              side={side}
              text={value}
              label={m.media_in_field({ field: name })}
              onRemove={(address) => setField(index, withoutFile(value, address))}
            />
            <AddFileButton
              side={side}
              label={m.media_add_field({ field: name })}
              onFiles={(chosenFiles) => void files.add(side, chosenFiles)}
            />
          </div>
        );
      })}
      {errors.back && (
        <p role="alert" className="text-sm text-red-600">
          {errors.back}
        </p>
      )}
      {files.adding && (
        <span role="status" className="text-xs text-slate-500">
          {m.media_adding()}
        </span>
      )}
    </div>
  );
}
