// "Your imports" under the import screen: every import of the learner, newest first, with when it was made,
// where it stands and what it brought in.
import type { ImportJson } from '@engram/gateway/router';
import { PagedList, type PagedQuery } from '../../components/paged-list';
import { getLocale, m } from '../../lib/i18n';
import { formatCount } from './wording';

const STATUS_NAMES: Record<ImportJson['status'], () => string> = {
  queued: m.import_status_queued,
  running: m.import_status_running,
  done: m.import_status_done,
  failed: m.import_status_failed,
};

const STATUS_LOOKS: Record<ImportJson['status'], string> = {
  queued: 'bg-slate-100 text-slate-700',
  running: 'bg-brand-50 text-brand-800',
  done: 'bg-emerald-50 text-emerald-800',
  failed: 'bg-red-50 text-red-800',
};

function PastImport({ item }: { item: ImportJson }) {
  const when = new Intl.DateTimeFormat(getLocale(), { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <li className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 py-3">
      <div className="min-w-0">
        <p className="font-medium [overflow-wrap:anywhere] text-slate-900">{item.name}</p>
        <p className="text-xs text-slate-600">
          <time dateTime={item.createdAt}>{when.format(new Date(item.createdAt))}</time>
          {item.status === 'done' &&
            ` · ${m.import_past_counts({
              notes: formatCount(item.counts.notes),
              cards: formatCount(item.counts.cards),
              skipped: formatCount(item.counts.skipped),
            })}`}
        </p>
      </div>
      <span className={`rounded-full px-2.5 py-0.5 text-xs font-medium ${STATUS_LOOKS[item.status]}`}>
        {STATUS_NAMES[item.status]()}
      </span>
    </li>
  );
}

export function PastImports({ list }: { list: PagedQuery<ImportJson> }) {
  return (
    <section
      aria-labelledby="past-imports-heading"
      className="rounded-2xl bg-white px-6 py-4 shadow-sm ring-1 ring-slate-200"
    >
      <h2 id="past-imports-heading" className="mb-2 text-lg font-semibold text-slate-900">
        {m.import_past_heading()}
      </h2>
      <PagedList
        list={list}
        loadingLabel={m.import_past_loading()}
        failedMessage={m.import_past_failed()}
        empty={m.import_past_empty()}
      >
        {(items) => (
          <ul aria-labelledby="past-imports-heading" className="divide-y divide-slate-100">
            {items.map((item) => (
              <PastImport key={item.id} item={item} />
            ))}
          </ul>
        )}
      </PagedList>
    </section>
  );
}
