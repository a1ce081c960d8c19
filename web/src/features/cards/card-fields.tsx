// The fields of a card, shared by the new-card form and the editor: type, front, back (or a note's note type and
// fields, note-fields.tsx), tags, and a preview of how it will be practised (its renderer loads only when asked
// for). The draft they edit and its checks are card-draft.ts.
import { backIsOptional, CARD_SIDE_MAX_LENGTH, frontMaxLength } from '@engram/contracts/cards';
import { clozeDeletion } from '@engram/contracts/cloze';
import { SIDED_CARD_TYPES } from '@engram/contracts/learning';
import { useId, useRef, useState } from 'react';
import { CardPreview } from '../../components/card/card-preview';
import { cardTypeLabel } from '../../components/card/card-type-label';
import { TextField } from '../../components/text-field';
import { m } from '../../lib/i18n';
import type { CardDraft, CardDraftErrors } from './card-draft';
import { AddFileButton, SideFiles, useCardFiles, withFile } from './card-files';
import { NoteFields } from './note-fields';
import { OcclusionEditor } from './occlusion-editor';
import { withoutFile } from './side-files';
import { TagPicker } from './tag-picker';

const CLOZE_EXAMPLE = clozeDeletion(1, 'Canberra');

type CardFieldsProps = {
  draft: CardDraft;
  errors: CardDraftErrors;
  onChange: (draft: CardDraft) => void;
  frontRef?: React.Ref<HTMLInputElement & HTMLTextAreaElement>;
};

export function CardFields({ draft, errors, onChange, frontRef }: CardFieldsProps) {
  const typeName = useId();
  const [preview, setPreview] = useState(false);
  const set = <K extends keyof CardDraft>(key: K, value: CardDraft[K]) => onChange({ ...draft, [key]: value });
  // A file arrives after the learner may have typed more: it is added to the draft as it is then.
  const latest = useRef(draft);
  latest.current = draft;
  const files = useCardFiles<'front' | 'back'>((side, markdown) =>
    onChange({ ...latest.current, [side]: withFile(latest.current[side], markdown) }),
  );

  return (
    <div className="space-y-4">
      {/* The form stands in the dashboard's narrow column as well as in wider places: the six choices go on one row
          only where the form itself has room for them (a container query), else three or two to a row. */}
      <fieldset className="@container">
        <legend className="text-sm font-medium text-slate-700">{m.cards_type()}</legend>
        <div className="mt-1.5 grid grid-cols-2 gap-1 rounded-lg bg-slate-100 p-1 @md:grid-cols-3 @3xl:grid-cols-6">
          {[...SIDED_CARD_TYPES, 'note' as const].map((type) => (
            <label
              key={type}
              className={`cursor-pointer rounded-md px-2 py-1.5 text-center text-sm font-medium transition has-focus-visible:outline-2 has-focus-visible:outline-brand-600 ${
                draft.type === type ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900'
              }`}
            >
              <input
                type="radio"
                name={typeName}
                value={type}
                checked={draft.type === type}
                onChange={() => set('type', type)}
                className="sr-only"
              />
              {type === 'note' ? m.cards_type_note_choice() : cardTypeLabel(type)}
            </label>
          ))}
        </div>
      </fieldset>
      {draft.type === 'note' ? (
        <NoteFields draft={draft} errors={errors} onChange={onChange} firstRef={frontRef} />
      ) : draft.type === 'occlusion' ? (
        <OcclusionEditor
          front={draft.front}
          onChange={(front) => onChange({ ...latest.current, front })}
          error={errors.front}
          headerRef={frontRef}
        />
      ) : (
        <>
          <TextField
            label={draft.type === 'cloze' ? m.cards_cloze_text() : m.new_card_front()}
            name="front"
            multiline
            rows={3}
            placeholder={
              draft.type === 'cloze'
                ? m.cards_cloze_placeholder({ example: CLOZE_EXAMPLE })
                : m.new_card_front_placeholder()
            }
            hint={
              draft.type === 'cloze'
                ? m.cards_cloze_hint({ example: CLOZE_EXAMPLE })
                : draft.type === 'reversed'
                  ? m.cards_reversed_hint()
                  : draft.type === 'typed'
                    ? m.cards_typed_hint()
                    : m.cards_markdown_hint()
            }
            value={draft.front}
            onChange={(value) => set('front', value)}
            error={errors.front}
            maxLength={frontMaxLength(draft.type)}
            ref={frontRef}
            {...files.handlers('front')}
          />
          <SideFiles
            side="front"
            text={draft.front}
            onRemove={(address) => set('front', withoutFile(draft.front, address))}
          />
          <AddFileButton side="front" onFiles={(chosen) => void files.add('front', chosen)} />
        </>
      )}
      {draft.type !== 'note' && (
        <>
          <TextField
            label={backIsOptional(draft.type) ? m.cards_cloze_extra() : m.new_card_back()}
            name="back"
            multiline
            rows={3}
            placeholder={backIsOptional(draft.type) ? '' : m.new_card_back_placeholder()}
            hint={m.new_card_hint({ max: CARD_SIDE_MAX_LENGTH })}
            value={draft.back}
            onChange={(value) => set('back', value)}
            error={errors.back}
            maxLength={CARD_SIDE_MAX_LENGTH}
            {...files.handlers('back')}
          />
          <SideFiles
            side="back"
            text={draft.back}
            onRemove={(address) => set('back', withoutFile(draft.back, address))}
          />
          <div className="flex items-center gap-3">
            <AddFileButton side="back" onFiles={(chosen) => void files.add('back', chosen)} />
            {files.adding && (
              <span role="status" className="text-xs text-slate-500">
                {m.media_adding()}
              </span>
            )}
          </div>
        </>
      )}
      <TagPicker label={m.cards_tags()} value={draft.tags} onChange={(tags) => set('tags', tags)} />
      <div>
        <button
          type="button"
          aria-expanded={preview}
          onClick={() => setPreview((shown) => !shown)}
          className="text-sm font-medium text-brand-700 hover:text-brand-800"
        >
          {preview ? m.cards_hide_preview() : m.cards_show_preview()}
        </button>
        {preview && (
          <CardPreview
            type={draft.type}
            front={draft.front}
            back={draft.back}
            note={draft.type === 'note' ? draft.note : undefined}
          />
        )}
      </div>
    </div>
  );
}
