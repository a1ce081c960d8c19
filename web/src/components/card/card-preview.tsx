// How a card will be practised: each of its review items (one for a basic card, both directions of a
// reversed card, one per deletion of a cloze card, one per template a note fills) with its question and its
// answer, exactly as practice shows them.
import type { CardType } from '@engram/contracts/learning';
import { cardItem, cardOrdinals, type NoteTypeShape } from '@engram/contracts/note-types';
import { m } from '../../lib/i18n';
import { RenderedMarkdown } from './card-view';
import { NoteTypeStyles } from './note-type-styles';

function Side({ label, markdown }: { label: string; markdown: string }) {
  return (
    <section aria-label={label} className="px-4 py-3">
      <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</p>
      <RenderedMarkdown markdown={markdown} className="mt-1 text-sm text-slate-900" />
    </section>
  );
}

type PreviewProps = {
  type: CardType;
  front: string;
  back: string;
  /** A note: its note type (its id, whose styling its cards are drawn with) and its fields. */
  note?: { id: string; type: NoteTypeShape; fields: string[] } | undefined;
};

export function CardPreview({ type, front, back, note }: PreviewProps) {
  const source = { type, front, back, ...(note && { note }) };
  // A cloze text without a deletion yet (a note that fills no template yet) shows as it stands.
  const found = cardOrdinals(source);
  const ordinals = found.length > 0 ? found : [0];
  return (
    <div className="mt-2 space-y-2">
      {note && <NoteTypeStyles />}
      {ordinals.map((ordinal, index) => {
        const item = cardItem(source, ordinal);
        const title = ordinals.length > 1 ? m.cards_preview_item({ number: index + 1, count: ordinals.length }) : '';
        return (
          <section
            key={ordinal}
            aria-label={title || undefined}
            data-note-type={note?.id}
            className="divide-y divide-dashed divide-slate-200 rounded-lg bg-slate-50 ring-1 ring-slate-200"
          >
            {title && <p className="px-4 pt-2 text-xs font-semibold text-slate-700">{title}</p>}
            <Side label={m.cards_preview_question()} markdown={item.prompt} />
            {item.answer.trim() !== '' && <Side label={m.cards_preview_answer()} markdown={item.answer} />}
          </section>
        );
      })}
    </div>
  );
}
