// The cards a search finds: a table on a wider screen, with a sort on each column's heading (the heading says
// which way it sorts: aria-sort), a list on a phone; each with its checkbox, and one for every card shown.
import type { BrowseSortName } from '@engram/contracts/search';
import { getLocale, m } from '../../lib/i18n';
import { markdownText } from '../../lib/markdown-text';
import type { BrowseCard } from './browse-calls';

/** A card's Markdown as a line of text: pictures and sounds by their names, links by their words, marks left out. */
export const plainText = (markdown: string) => markdownText(markdown, { media: 'named' });

const DAY_MS = 86_400_000;

/** When a learned card is due; a new or archived card has no due day (its state says which). */
function dueText(card: BrowseCard): string {
  if (card.archived || !card.due) return '—';
  const days = Math.round((new Date(card.due).getTime() - Date.now()) / DAY_MS);
  return new Intl.RelativeTimeFormat(getLocale(), { numeric: 'auto' }).format(days, 'day');
}

const stateText = (card: BrowseCard) =>
  card.archived
    ? m.browse_state_suspended()
    : {
        new: m.browse_state_new,
        learning: m.browse_state_learning,
        review: m.browse_state_review,
        relearning: m.browse_state_relearning,
      }[card.state]();

const added = (card: BrowseCard) =>
  new Intl.DateTimeFormat(getLocale(), { dateStyle: 'medium' }).format(new Date(card.createdAt));

type Column = { sort?: BrowseSortName; label: () => string; cell: (card: BrowseCard) => string; numeric?: boolean };

const COLUMNS: Column[] = [
  { sort: 'due', label: () => m.browse_column_due(), cell: dueText },
  { label: () => m.browse_column_state(), cell: stateText },
  {
    sort: 'interval',
    label: () => m.browse_column_interval(),
    cell: (card) => m.browse_days({ count: card.intervalDays }),
    numeric: true,
  },
  {
    sort: 'reps',
    label: () => m.browse_column_reps(),
    cell: (card) => card.reps.toLocaleString(getLocale()),
    numeric: true,
  },
  {
    sort: 'lapses',
    label: () => m.browse_column_lapses(),
    cell: (card) => card.lapses.toLocaleString(getLocale()),
    numeric: true,
  },
  { sort: 'added', label: () => m.browse_column_added(), cell: added },
];

interface ResultsProps {
  cards: BrowseCard[];
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onToggleAll: (ids: string[], on: boolean) => void;
  sort: BrowseSortName;
  ascending: boolean;
  onSort: (sort: BrowseSortName) => void;
}

function SortHeading({
  column,
  sort,
  ascending,
  onSort,
}: { column: Column } & Pick<ResultsProps, 'sort' | 'ascending' | 'onSort'>) {
  const active = column.sort !== undefined && column.sort === sort;
  return (
    <th
      scope="col"
      aria-sort={active ? (ascending ? 'ascending' : 'descending') : undefined}
      className={`px-3 py-2 font-medium whitespace-nowrap text-slate-700 ${column.numeric ? 'text-right' : 'text-left'}`}
    >
      {column.sort ? (
        <button
          type="button"
          onClick={() => column.sort && onSort(column.sort)}
          className="inline-flex items-center gap-1 rounded hover:text-slate-950"
        >
          {column.label()}
          <span aria-hidden="true" className="text-slate-400">
            {active ? (ascending ? '▲' : '▼') : '↕'}
          </span>
        </button>
      ) : (
        column.label()
      )}
    </th>
  );
}

function Tags({ card }: { card: BrowseCard }) {
  if (card.tags.length === 0) return null;
  return (
    <ul className="mt-1 flex flex-wrap gap-1" aria-label={m.browse_tags_of({ front: plainText(card.front) })}>
      {card.tags.map((tag) => (
        <li key={tag.id} className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700">
          {tag.name}
        </li>
      ))}
    </ul>
  );
}

export function BrowseResults({ cards, selected, onToggle, onToggleAll, sort, ascending, onSort }: ResultsProps) {
  const ids = cards.map((card) => card.id);
  const allChosen = ids.length > 0 && ids.every((id) => selected.has(id));
  const chooseAll = (
    <input
      type="checkbox"
      className="size-4 accent-brand-600"
      checked={allChosen}
      onChange={(event) => onToggleAll(ids, event.target.checked)}
      aria-label={m.browse_select_shown({ count: ids.length })}
    />
  );
  const choose = (card: BrowseCard) => (
    <input
      type="checkbox"
      className="size-4 accent-brand-600"
      checked={selected.has(card.id)}
      onChange={() => onToggle(card.id)}
      aria-label={m.browse_select_card({ front: plainText(card.front) })}
    />
  );
  return (
    <>
      <div className="hidden overflow-x-auto rounded-xl bg-white shadow-sm ring-1 ring-slate-200 sm:block">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">{m.browse_table_caption()}</caption>
          <thead className="bg-slate-50">
            <tr>
              <th scope="col" className="w-10 px-3 py-2 text-left">
                {chooseAll}
              </th>
              <th
                scope="col"
                aria-sort={sort === 'front' ? (ascending ? 'ascending' : 'descending') : undefined}
                className="px-3 py-2 text-left"
              >
                <button
                  type="button"
                  onClick={() => onSort('front')}
                  className="inline-flex items-center gap-1 font-medium text-slate-700"
                >
                  {m.browse_column_card()}
                  <span aria-hidden="true" className="text-slate-400">
                    {sort === 'front' ? (ascending ? '▲' : '▼') : '↕'}
                  </span>
                </button>
              </th>
              {COLUMNS.map((column) => (
                <SortHeading key={column.label()} column={column} sort={sort} ascending={ascending} onSort={onSort} />
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {cards.map((card) => (
              <tr key={card.id} className={selected.has(card.id) ? 'bg-brand-50' : undefined}>
                <td className="px-3 py-2 align-top">{choose(card)}</td>
                <td className="max-w-md px-3 py-2 align-top">
                  <p className="line-clamp-2 font-medium break-words text-slate-900">{plainText(card.front)}</p>
                  <p className="line-clamp-1 text-xs break-words text-slate-500">{plainText(card.back)}</p>
                  <Tags card={card} />
                </td>
                {COLUMNS.map((column) => (
                  <td
                    key={column.label()}
                    className={`px-3 py-2 align-top whitespace-nowrap text-slate-700 ${column.numeric ? 'text-right tabular-nums' : ''}`}
                  >
                    {column.cell(card)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="sm:hidden">
        <div className="mb-2 flex items-center gap-2 text-sm text-slate-700">
          {chooseAll}
          <span aria-hidden="true">{m.browse_select_shown({ count: ids.length })}</span>
        </div>
        <ul className="grid gap-2" aria-label={m.browse_table_caption()}>
          {cards.map((card) => (
            <li
              key={card.id}
              className={`flex gap-3 rounded-xl p-3 ring-1 ring-slate-200 ${selected.has(card.id) ? 'bg-brand-50' : 'bg-white'}`}
            >
              <div className="pt-0.5">{choose(card)}</div>
              <div className="min-w-0 flex-1">
                <p className="font-medium break-words text-slate-900">{plainText(card.front)}</p>
                <p className="line-clamp-1 text-xs break-words text-slate-500">{plainText(card.back)}</p>
                <p className="mt-1 text-xs text-slate-600">
                  {card.due && !card.archived
                    ? `${stateText(card)} · ${dueText(card)} · ${m.browse_days({ count: card.intervalDays })}`
                    : stateText(card)}
                </p>
                <Tags card={card} />
              </div>
            </li>
          ))}
        </ul>
      </div>
    </>
  );
}
