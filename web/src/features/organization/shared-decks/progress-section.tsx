// Progress: a row per member (reviews, cards learned of the deck's cards, retention, streak, and whether
// the assignment's target is met), for one assignment or every deck of the organization. Owners and
// admins see every member, a page at a time with "Load more"; members and guests their own row, with a
// line saying so. On a phone each member is a card of their figures, named, instead of a table to scroll sideways.
import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { PagedList } from '../../../components/paged-list';
import { SelectField } from '../../../components/select-field';
import { type ProgressJson, percent } from '../../../entities/shared-decks/shared-decks';
import { m } from '../../../lib/i18n';
import type { SharedDecksContext } from './context';
import { progressOptions, useAllAssignments } from './queries';

const CELL = 'px-3 py-2 text-right tabular-nums';

type Figure = { label: string; value: string };

/** A member's figures, each with its column's name: the table's cells and, on a phone, their card's. */
function figuresOf(row: ProgressJson, withTarget: boolean): Figure[] {
  return [
    { label: m.shared_decks_column_reviews(), value: String(row.reviews) },
    {
      label: m.shared_decks_column_learned(),
      value: m.shared_decks_learned_of({ learned: row.cardsLearned, count: row.cardCount }),
    },
    { label: m.shared_decks_column_retention(), value: percent(row.retention) },
    { label: m.shared_decks_column_streak(), value: m.shared_decks_streak_days({ days: row.streakDays }) },
    ...(withTarget
      ? [{ label: m.shared_decks_column_target(), value: row.targetMet ? m.shared_decks_yes() : m.shared_decks_no() }]
      : []),
  ];
}

function ProgressTable(props: {
  rows: ProgressJson[];
  context: SharedDecksContext;
  withTarget: boolean;
  caption: string;
}) {
  const { rows, context, withTarget, caption } = props;
  const name = (row: ProgressJson) => {
    const known = context.members.get(row.userId) ?? m.shared_decks_former_member();
    return row.userId === context.userId ? m.shared_decks_progress_you({ name: known }) : known;
  };
  return (
    <>
      <ul aria-label={caption} className="space-y-3 sm:hidden">
        {rows.map((row) => (
          <li
            key={row.userId}
            aria-label={name(row)}
            className="rounded-xl bg-white p-4 text-sm shadow-sm ring-1 ring-slate-200"
          >
            <p className="font-medium text-slate-900">{name(row)}</p>
            <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-2">
              {figuresOf(row, withTarget).map((figure) => (
                <div key={figure.label}>
                  <dt className="text-xs text-slate-600 uppercase">{figure.label}</dt>
                  <dd className="text-slate-900 tabular-nums">{figure.value}</dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>
      <ProgressGrid rows={rows} name={name} withTarget={withTarget} caption={caption} />
    </>
  );
}

function ProgressGrid(props: {
  rows: ProgressJson[];
  name: (row: ProgressJson) => string;
  withTarget: boolean;
  caption: string;
}) {
  const { rows, name, withTarget, caption } = props;
  // The columns' names are those of any row's figures.
  const columns = figuresOf(rows[0] as ProgressJson, withTarget).map((figure) => figure.label);
  return (
    <div className="hidden overflow-x-auto rounded-xl bg-white shadow-sm ring-1 ring-slate-200 sm:block">
      <table className="w-full text-sm text-slate-700">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 text-xs text-slate-600 uppercase">
          <tr>
            <th scope="col" className="px-3 py-2 text-left">
              {m.shared_decks_column_member()}
            </th>
            {columns.map((column) => (
              <th key={column} scope="col" className={CELL}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.userId} className="border-b border-slate-100 last:border-0">
              <th scope="row" className="px-3 py-2 text-left font-medium text-slate-900">
                {name(row)}
              </th>
              {figuresOf(row, withTarget).map((figure) => (
                <td key={figure.label} className={CELL}>
                  {figure.value}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ProgressSection({ context }: { context: SharedDecksContext }) {
  const [assignmentId, setAssignmentId] = useState('');
  const assignments = useAllAssignments(context.organizationId);
  const progress = useInfiniteQuery(progressOptions(context.organizationId, assignmentId || undefined));
  const allMembers = progress.data?.pages[0]?.allMembers;
  const noteId = useId();

  return (
    <section aria-labelledby="progress-heading" aria-describedby={allMembers === false ? noteId : undefined}>
      <div className="mb-4 flex flex-wrap items-end justify-between gap-4">
        <h2 id="progress-heading" className="text-lg font-semibold text-slate-900">
          {m.shared_decks_progress_heading()}
        </h2>
        <div className="w-64">
          <SelectField
            label={m.shared_decks_progress_of()}
            name="assignmentId"
            value={assignmentId}
            onChange={setAssignmentId}
          >
            <option value="">{m.shared_decks_progress_all_decks()}</option>
            {assignments.map((assignment) => (
              <option key={assignment.id} value={assignment.id}>
                {assignment.deckName}
              </option>
            ))}
          </SelectField>
        </div>
      </div>
      {allMembers === false && (
        <p id={noteId} className="mb-3 text-sm text-slate-600">
          {m.shared_decks_progress_own_only()}
        </p>
      )}
      <PagedList
        list={progress}
        loadingLabel={m.shared_decks_loading()}
        failedMessage={m.shared_decks_progress_failed()}
        empty={m.shared_decks_progress_empty()}
      >
        {(rows) => (
          <ProgressTable
            rows={rows}
            context={context}
            withTarget={assignmentId !== ''}
            caption={m.shared_decks_progress_heading()}
          />
        )}
      </PagedList>
    </section>
  );
}
