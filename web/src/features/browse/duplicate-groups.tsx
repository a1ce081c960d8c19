// Cards whose first side is the same once markup, spaces, accents and case are set aside, in groups (the largest
// first), each card with its checkbox for the bulk actions (keep one, archive or delete the others).
import { useQuery } from '@tanstack/react-query';
import { InlineError, InlineLoading } from '../../components/query-states';
import { m } from '../../lib/i18n';
import { duplicatesOptions } from './browse-calls';
import { plainText } from './browse-results';

export function DuplicateGroups({
  selected,
  onToggle,
}: {
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
}) {
  const duplicates = useQuery(duplicatesOptions);
  if (duplicates.isPending) return <InlineLoading label={m.browse_duplicates_loading()} />;
  if (duplicates.isError)
    return <InlineError message={m.browse_duplicates_error()} onRetry={() => void duplicates.refetch()} />;
  const { groups } = duplicates.data;
  if (groups.length === 0)
    return (
      <p className="rounded-xl bg-white p-6 text-sm text-slate-600 ring-1 ring-slate-200">
        {m.browse_duplicates_none()}
      </p>
    );
  return (
    <ul className="grid gap-3">
      {groups.map((group) => (
        <li key={group.key} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <h3 className="text-sm font-semibold text-slate-900">
            {m.browse_duplicates_group({
              front: plainText(group.cards[0]?.front ?? group.key),
              count: group.cards.length,
            })}
          </h3>
          <ul className="mt-2 grid gap-1.5">
            {group.cards.map((card) => (
              <li key={card.id}>
                <label className="flex items-start gap-2 text-sm text-slate-700">
                  <input
                    type="checkbox"
                    className="mt-0.5 size-4 accent-brand-600"
                    checked={selected.has(card.id)}
                    onChange={() => onToggle(card.id)}
                  />
                  <span className="min-w-0 break-words">
                    <span className="font-medium text-slate-900">{plainText(card.front)}</span>
                    <span className="text-slate-500"> — {plainText(card.back)}</span>
                    {card.tags.length > 0 && (
                      <span className="text-xs text-slate-500"> · {card.tags.map((tag) => tag.name).join(', ')}</span>
                    )}
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}
