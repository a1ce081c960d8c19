// One card in the list: its sides rendered compactly (as practice shows them), type and tags, and its actions — edit in place, archive or restore,
// and delete after a confirmation.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../components/button';
import { cardTypeLabel } from '../../components/card/card-type-label';
import { CompactCard } from '../../components/card/card-view';
import { type Card, refreshCards } from '../../entities/cards/queries';
import { toastError } from '../../lib/errors';
import { useContractForm } from '../../lib/form';
import { getLocale, m } from '../../lib/i18n';
import { toast } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { cardProblems } from '../../lib/validation';
import { type CardDraft, draftInput } from './card-draft';
import { CardFields } from './card-fields';

function CardEditor({ card, onDone }: { card: Card; onDone: () => void }) {
  const form = useContractForm({
    initial: (): CardDraft => ({
      type: card.type,
      front: card.front,
      back: card.back,
      tags: card.tags,
      // A note's type is filled in by its fields' editor once the note types are here (note-fields.tsx).
      ...(card.noteTypeId &&
        card.fields && {
          note: {
            id: card.noteTypeId,
            type: { name: '', kind: 'standard' as const, fields: [], templates: [] },
            fields: card.fields,
          },
        }),
    }),
    check: cardProblems,
    input: (draft) => ({ id: card.id, ...draftInput(draft) }),
    mutation: trpc.cards.update.mutationOptions(),
    onSaved: onDone,
    saved: () => m.cards_saved(),
    invalidate: refreshCards,
  });

  return (
    <form onSubmit={form.submit} noValidate aria-label={m.cards_edit_label()} className="space-y-4">
      <CardFields draft={form.draft} errors={form.errors} onChange={form.setDraft} />
      <div className="flex justify-end gap-2">
        <Button variant="ghost" onClick={onDone}>
          {m.cards_cancel()}
        </Button>
        <Button type="submit" pending={form.pending}>
          {m.cards_save()}
        </Button>
      </div>
    </form>
  );
}

export function CardItem({ card }: { card: Card }) {
  const [mode, setMode] = useState<'view' | 'edit' | 'confirm-delete'>('view');
  const dateFormat = new Intl.DateTimeFormat(getLocale(), { dateStyle: 'medium' });
  const archive = useMutation(
    trpc.cards.archive.mutationOptions({
      onSuccess: async (_card, input) => {
        toast.success(input.archived ? m.cards_archived_toast() : m.cards_restored_toast());
        await refreshCards();
      },
      onError: toastError,
    }),
  );
  const remove = useMutation(
    trpc.cards.delete.mutationOptions({
      onSuccess: async () => {
        toast.success(m.cards_deleted_toast());
        await refreshCards();
      },
      onError: toastError,
    }),
  );

  return (
    <li className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200 transition hover:ring-brand-200">
      {mode === 'edit' ? (
        <CardEditor card={card} onDone={() => setMode('view')} />
      ) : (
        <>
          <div className="flex items-start justify-between gap-3">
            <CompactCard type={card.type} front={card.front} back={card.back} />
            <span className="shrink-0 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600">
              {cardTypeLabel(card.type)}
            </span>
          </div>
          {card.tags.length > 0 && (
            <ul className="mt-3 flex flex-wrap gap-1.5" aria-label={m.cards_tags()}>
              {card.tags.map((tag) => (
                <li key={tag.id} className="rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-medium text-brand-700">
                  {tag.name}
                </li>
              ))}
            </ul>
          )}
          <div className="mt-3 flex flex-wrap items-center justify-between gap-2">
            <p className="text-xs text-slate-500">
              {m.cards_added_on()} <time dateTime={card.createdAt}>{dateFormat.format(new Date(card.createdAt))}</time>
            </p>
            {mode === 'confirm-delete' ? (
              <div className="flex items-center gap-2" role="alert">
                <span className="text-sm text-red-700">{m.cards_delete_confirm()}</span>
                <Button variant="ghost" onClick={() => setMode('view')}>
                  {m.cards_cancel()}
                </Button>
                <Button
                  className="bg-red-600 hover:bg-red-700"
                  pending={remove.isPending}
                  onClick={() => remove.mutate({ id: card.id })}
                >
                  {m.cards_delete_yes()}
                </Button>
              </div>
            ) : (
              <div className="flex gap-1">
                <Button variant="ghost" className="px-2.5 py-1.5" onClick={() => setMode('edit')}>
                  {m.cards_edit()}
                </Button>
                <Button
                  variant="ghost"
                  className="px-2.5 py-1.5"
                  pending={archive.isPending}
                  onClick={() => archive.mutate({ id: card.id, archived: !card.archived })}
                >
                  {card.archived ? m.cards_restore() : m.cards_archive()}
                </Button>
                <Button
                  variant="ghost"
                  className="px-2.5 py-1.5 text-red-600"
                  onClick={() => setMode('confirm-delete')}
                >
                  {m.cards_delete()}
                </Button>
              </div>
            )}
          </div>
        </>
      )}
    </li>
  );
}
