// The settings' "note types" section (issue 45): the note types the learner makes notes of. The stock ones are
// shown as they are (the same for everyone); a new one starts as a copy of any type; the learner's own are changed
// here: their name, their fields (renamed, moved, added or removed: every note of the type follows, and a renamed
// field is renamed in the templates too, as Anki does), their card templates (a front and a back each, in Markdown
// with Anki's template tags) and their styling. One no note uses can be deleted.
import {
  isStockNoteTypeId,
  NOTE_FIELD_NAME_MAX_LENGTH,
  NOTE_TEMPLATE_MAX_LENGTH,
  NOTE_TYPE_CSS_MAX_LENGTH,
  NOTE_TYPE_NAME_MAX_LENGTH,
  noteTypeShape,
  renameFieldInTemplate,
  TEMPLATE_PROBLEMS,
  type TemplateProblem,
  templateFields,
  templateProblem,
} from '@engram/contracts/note-types';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { InlineError, InlineLoading } from '../../components/query-states';
import { SelectField } from '../../components/select-field';
import { TextField } from '../../components/text-field';
import { type NoteType, noteTypesOptions, refreshNoteTypes } from '../../entities/note-types/queries';
import { toastError } from '../../lib/errors';
import { type FieldErrors, useContractForm } from '../../lib/form';
import { m } from '../../lib/i18n';
import { toast } from '../../lib/toast';
import { trpc } from '../../lib/trpc';

/** A field as it is being edited: its name, and the position it had in the type (-1: a new field). */
interface FieldDraft {
  name: string;
  source: number;
}

interface NoteTypeDraft {
  name: string;
  fields: FieldDraft[];
  templates: { name: string; front: string; back: string }[];
  css: string;
}

const toDraft = (type: NoteType): NoteTypeDraft => ({
  name: type.name,
  fields: type.fields.map((name, source) => ({ name, source })),
  templates: type.templates.map((template) => ({ ...template })),
  css: type.css,
});

/** The type the draft saves as: a renamed field renamed in every template too. */
function fromDraft(type: NoteType, draft: NoteTypeDraft) {
  let templates = draft.templates.map((template) => ({ ...template }));
  for (const field of draft.fields) {
    const before = type.fields[field.source];
    if (field.source < 0 || before === undefined || before === field.name.trim()) continue;
    templates = templates.map((template) => ({
      name: template.name,
      front: renameFieldInTemplate(template.front, before, field.name.trim()),
      back: renameFieldInTemplate(template.back, before, field.name.trim()),
    }));
  }
  return {
    name: draft.name.trim(),
    kind: type.kind,
    fields: draft.fields.map((field) => field.name.trim()),
    templates,
    css: draft.css,
  };
}

/** The template tags the messages show, as written in any language. */
const TAGS = {
  open: '{{',
  close: '}}',
  field: '{{Field}}',
  ifFilled: '{{#Field}}',
  ifEmpty: '{{^Field}}',
  closing: '{{/Field}}',
  typed: '{{type:Field}}',
  hint: '{{hint:Field}}',
  cloze: '{{cloze:Field}}',
  example: '{{cloze:Text}}',
};

/** The contracts' TEMPLATE_PROBLEMS in the current language. */
const TEMPLATE_WORDS: Record<TemplateProblem, () => string> = {
  unclosedTag: () => m.note_types_template_unclosed_tag(TAGS),
  unclosedSection: () => m.note_types_template_unclosed_section(TAGS),
  strayClose: () => m.note_types_template_stray_close(TAGS),
  unknownField: m.note_types_template_unknown_field,
  emptyFront: m.note_types_template_empty_front,
  noClozeField: () => m.note_types_template_no_cloze_field(TAGS),
};

type DraftErrors = FieldErrors<'name' | 'fields' | 'templates'>;

/** The words for `name` when another of `types` (stock or the learner's own) has it, in any case. */
function nameTaken(name: string, types: readonly NoteType[], except?: string): string | undefined {
  const wanted = name.trim().toLowerCase();
  const other = types.find((each) => each.id !== except && each.name.toLowerCase() === wanted);
  return other ? m.note_types_name_taken({ name: other.name }) : undefined;
}

/** What keeps the draft from being saved, in the current language (the contracts' rules). */
function draftProblems(type: NoteType, draft: NoteTypeDraft, types: readonly NoteType[]): DraftErrors {
  const errors: DraftErrors = {};
  const shape = fromDraft(type, draft);
  if (shape.name === '' || shape.name.length > NOTE_TYPE_NAME_MAX_LENGTH) {
    errors.name = m.note_types_name_invalid({ max: NOTE_TYPE_NAME_MAX_LENGTH });
  } else {
    const taken = nameTaken(shape.name, types, type.id);
    if (taken) errors.name = taken;
  }
  const names = shape.fields.map((name) => name.toLowerCase());
  if (shape.fields.length === 0) errors.fields = m.note_types_fields_none();
  else if (shape.fields.some((name) => name === '' || name.length > NOTE_FIELD_NAME_MAX_LENGTH)) {
    errors.fields = m.note_types_field_name_required({ max: NOTE_FIELD_NAME_MAX_LENGTH });
  } else if (new Set(names).size !== names.length) errors.fields = m.note_types_field_duplicate();
  if (shape.templates.length === 0) errors.templates = m.note_types_templates_none();
  for (const template of shape.templates) {
    for (const side of [template.front, template.back]) {
      const problem =
        templateProblem(side) ??
        (templateFields(side).some((name) => !shape.fields.includes(name)) ? 'unknownField' : undefined);
      if (problem && !errors.templates) errors.templates = TEMPLATE_WORDS[problem]();
    }
  }
  // Whatever else the contract refuses (a field name Anki keeps for itself, a front showing no field).
  const parsed = noteTypeShape.safeParse(shape);
  if (!parsed.success && Object.keys(errors).length === 0) {
    const issue = parsed.error.issues[0];
    const problem = Object.entries(TEMPLATE_PROBLEMS).find(([, words]) => words === issue?.message)?.[0];
    if (issue?.path[0] === 'fields')
      errors.fields = m.note_types_field_name_invalid({ forbidden: ': { } "', starts: '# ^ / !' });
    else errors.templates = problem ? TEMPLATE_WORDS[problem as TemplateProblem]() : m.note_types_invalid();
  }
  return errors;
}

function FieldsEditor({
  fields,
  onChange,
  error,
}: {
  fields: FieldDraft[];
  onChange: (fields: FieldDraft[]) => void;
  error: string | undefined;
}) {
  const move = (from: number, to: number) => {
    const next = [...fields];
    const [moved] = next.splice(from, 1);
    if (moved) next.splice(to, 0, moved);
    onChange(next);
  };
  return (
    <fieldset className="space-y-2 sm:col-span-2">
      <legend className="text-sm font-medium text-slate-700">{m.note_types_fields()}</legend>
      <p className="text-xs text-slate-500">{m.note_types_fields_hint()}</p>
      <ol className="space-y-2">
        {fields.map((field, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a field's place is its identity while it is renamed
          <li key={index} className="flex flex-wrap items-end gap-2">
            <div className="min-w-40 flex-1">
              <TextField
                label={m.note_types_field_name({ number: index + 1 })}
                name={`noteField-${index}`}
                value={field.name}
                maxLength={NOTE_FIELD_NAME_MAX_LENGTH}
                onChange={(name) => onChange(fields.map((each, at) => (at === index ? { ...each, name } : each)))}
              />
            </div>
            <Button
              variant="ghost"
              disabled={index === 0}
              onClick={() => move(index, index - 1)}
              aria-label={m.note_types_field_up({ name: field.name })}
            >
              ↑
            </Button>
            <Button
              variant="ghost"
              disabled={index === fields.length - 1}
              onClick={() => move(index, index + 1)}
              aria-label={m.note_types_field_down({ name: field.name })}
            >
              ↓
            </Button>
            <Button
              variant="ghost"
              disabled={fields.length === 1}
              onClick={() => onChange(fields.filter((_, at) => at !== index))}
              aria-label={m.note_types_field_remove({ name: field.name })}
            >
              {m.note_types_remove()}
            </Button>
          </li>
        ))}
      </ol>
      {error && (
        <p role="alert" className="text-sm text-red-600">
          {error}
        </p>
      )}
      <Button variant="secondary" onClick={() => onChange([...fields, { name: '', source: -1 }])}>
        {m.note_types_field_add()}
      </Button>
    </fieldset>
  );
}

function OwnNoteType({ type, types }: { type: NoteType; types: readonly NoteType[] }) {
  const form = useContractForm({
    initial: () => toDraft(type),
    check: (draft: NoteTypeDraft) => draftProblems(type, draft, types),
    input: (draft) => ({
      id: type.id,
      type: fromDraft(type, draft),
      fieldSources: draft.fields.map((field) => field.source),
    }),
    mutation: trpc.cards.updateNoteType.mutationOptions(),
    saved: () => m.note_types_saved(),
    invalidate: refreshNoteTypes,
  });
  const { draft, errors, set } = form;
  const [deleting, setDeleting] = useState(false);
  const remove = useMutation(
    trpc.cards.deleteNoteType.mutationOptions({
      onSuccess: async () => {
        setDeleting(false);
        toast.success(m.note_types_deleted());
        await refreshNoteTypes();
      },
      onError: (error) => {
        setDeleting(false);
        toastError(error);
      },
    }),
  );
  const setTemplate = (index: number, key: 'name' | 'front' | 'back', value: string) =>
    set('templates')(draft.templates.map((template, at) => (at === index ? { ...template, [key]: value } : template)));
  return (
    <form onSubmit={form.submit} noValidate aria-label={type.name} className="grid gap-5 sm:grid-cols-2">
      <p className="text-sm text-slate-600 sm:col-span-2">{m.note_types_notes({ count: type.notes })}</p>
      <div className="sm:col-span-2">
        <TextField
          label={m.note_types_name()}
          name="noteTypeName"
          value={draft.name}
          onChange={set('name')}
          maxLength={NOTE_TYPE_NAME_MAX_LENGTH}
          error={errors.name}
        />
      </div>
      <FieldsEditor fields={draft.fields} onChange={set('fields')} error={errors.fields} />
      <fieldset className="space-y-4 sm:col-span-2">
        <legend className="text-sm font-medium text-slate-700">{m.note_types_templates()}</legend>
        <p className="text-xs text-slate-500">{m.note_types_templates_hint(TAGS)}</p>
        {draft.templates.map((template, index) => (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: a template's place is its card ordinal
            key={index}
            className="space-y-3 rounded-lg bg-slate-50 p-4 ring-1 ring-slate-200"
          >
            <TextField
              label={m.note_types_template_name({ number: index + 1 })}
              name={`templateName-${index}`}
              value={template.name}
              maxLength={NOTE_TYPE_NAME_MAX_LENGTH}
              onChange={(value) => setTemplate(index, 'name', value)}
            />
            <TextField
              label={m.note_types_template_front()}
              name={`templateFront-${index}`}
              multiline
              rows={3}
              value={template.front}
              maxLength={NOTE_TEMPLATE_MAX_LENGTH}
              onChange={(value) => setTemplate(index, 'front', value)}
            />
            <TextField
              label={m.note_types_template_back()}
              name={`templateBack-${index}`}
              multiline
              rows={3}
              value={template.back}
              maxLength={NOTE_TEMPLATE_MAX_LENGTH}
              onChange={(value) => setTemplate(index, 'back', value)}
            />
            {type.kind === 'standard' && draft.templates.length > 1 && (
              <Button variant="ghost" onClick={() => set('templates')(draft.templates.filter((_, at) => at !== index))}>
                {m.note_types_template_remove({ name: template.name })}
              </Button>
            )}
          </div>
        ))}
        {errors.templates && (
          <p role="alert" className="text-sm text-red-600">
            {errors.templates}
          </p>
        )}
        {type.kind === 'standard' && (
          <Button
            variant="secondary"
            onClick={() =>
              set('templates')([
                ...draft.templates,
                { name: m.note_types_template_default({ number: draft.templates.length + 1 }), front: '', back: '' },
              ])
            }
          >
            {m.note_types_template_add()}
          </Button>
        )}
      </fieldset>
      <div className="sm:col-span-2">
        <TextField
          label={m.note_types_css()}
          name="noteTypeCss"
          multiline
          rows={4}
          value={draft.css}
          maxLength={NOTE_TYPE_CSS_MAX_LENGTH}
          hint={m.note_types_css_hint()}
          onChange={set('css')}
        />
      </div>
      <div className="flex flex-wrap gap-3 sm:col-span-2">
        <Button type="submit" pending={form.pending}>
          {m.note_types_save()}
        </Button>
        <Button variant="secondary" onClick={() => setDeleting(true)}>
          {m.note_types_delete()}
        </Button>
      </div>
      <ConfirmDialog
        open={deleting}
        title={m.note_types_delete_title({ name: type.name })}
        text={m.note_types_delete_text()}
        confirmLabel={m.note_types_delete()}
        pending={remove.isPending}
        onConfirm={() => remove.mutate({ id: type.id })}
        onCancel={() => setDeleting(false)}
      />
    </form>
  );
}

/** A stock type, as it is: its fields and card templates. */
function StockNoteType({ type }: { type: NoteType }) {
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">{m.note_types_stock()}</p>
      <p className="text-sm text-slate-600">{m.note_types_notes({ count: type.notes })}</p>
      <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="font-medium text-slate-700">{m.note_types_fields()}</dt>
        <dd className="text-slate-900">{type.fields.join(', ')}</dd>
        {type.templates.map((template) => (
          <div key={template.name} className="contents">
            <dt className="font-medium text-slate-700">{template.name}</dt>
            <dd>
              <code className="block text-xs whitespace-pre-wrap text-slate-800">{template.front}</code>
              <code className="mt-1 block text-xs whitespace-pre-wrap text-slate-500">{template.back}</code>
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** A new note type: a name, and the type it starts as a copy of. */
function NewNoteType({ types, onCreated }: { types: NoteType[]; onCreated: (id: string) => void }) {
  const [name, setName] = useState('');
  const [fromId, setFromId] = useState(types[0]?.id ?? '');
  const [attempted, setAttempted] = useState(false);
  const trimmed = name.trim();
  const lengthWrong = trimmed.length === 0 || trimmed.length > NOTE_TYPE_NAME_MAX_LENGTH;
  const problem = lengthWrong
    ? m.note_types_name_invalid({ max: NOTE_TYPE_NAME_MAX_LENGTH })
    : nameTaken(trimmed, types);
  const create = useMutation(
    trpc.cards.createNoteType.mutationOptions({
      onSuccess: async (created) => {
        setName('');
        setAttempted(false);
        toast.success(m.note_types_created());
        await refreshNoteTypes();
        onCreated(created.id);
      },
      onError: toastError,
    }),
  );
  return (
    <form
      noValidate
      aria-label={m.note_types_new()}
      className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-start"
      onSubmit={(event) => {
        event.preventDefault();
        setAttempted(true);
        const from = types.find((type) => type.id === fromId);
        if (problem || !from) return;
        create.mutate({
          name: trimmed,
          kind: from.kind,
          fields: from.fields,
          templates: from.templates,
          css: from.css,
        });
      }}
    >
      <TextField
        label={m.note_types_new_name()}
        name="newNoteTypeName"
        value={name}
        onChange={setName}
        maxLength={NOTE_TYPE_NAME_MAX_LENGTH}
        error={attempted ? problem : undefined}
      />
      <SelectField label={m.note_types_new_from()} name="newNoteTypeFrom" value={fromId} onChange={setFromId}>
        {types.map((type) => (
          <option key={type.id} value={type.id}>
            {type.name}
          </option>
        ))}
      </SelectField>
      <Button type="submit" variant="secondary" pending={create.isPending} className="sm:mt-7">
        {m.note_types_create()}
      </Button>
    </form>
  );
}

export function NoteTypesSection() {
  const types = useQuery(noteTypesOptions);
  const [chosenId, setChosenId] = useState<string | undefined>(undefined);
  if (types.isPending) return <InlineLoading label={m.note_types_loading()} />;
  if (types.isError) return <InlineError message={m.note_types_load_failed()} onRetry={() => void types.refetch()} />;
  const all = types.data.items;
  const type = all.find(({ id }) => id === chosenId) ?? all.find((each) => !each.stock) ?? all[0];
  return (
    <section
      aria-labelledby="note-types-heading"
      className="space-y-8 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
    >
      <div>
        <h2 id="note-types-heading" className="text-lg font-semibold text-slate-900">
          {m.note_types_heading()}
        </h2>
        <p className="mt-1 text-sm text-slate-600">{m.note_types_intro()}</p>
      </div>
      <NewNoteType types={all} onCreated={setChosenId} />
      {type && (
        <>
          <SelectField label={m.note_types_choose()} name="noteType" value={type.id} onChange={setChosenId}>
            {all.map((each) => (
              <option key={each.id} value={each.id}>
                {each.stock ? m.note_types_stock_label({ name: each.name }) : each.name}
              </option>
            ))}
          </SelectField>
          {isStockNoteTypeId(type.id) ? (
            <StockNoteType type={type} />
          ) : (
            <OwnNoteType key={`${type.id}:${JSON.stringify(type)}`} type={type} types={all} />
          )}
        </>
      )}
    </section>
  );
}
