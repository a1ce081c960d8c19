// "Take your cards with you": the learner's cards as an Anki package or CSV (all, or those with chosen tags),
// or everything Engram holds about them as JSON; the export runs in the background with a progress bar and
// ends with a link that downloads the file (kept for a day, each link good for a few minutes), and the
// learner's recent exports are listed with their own links.
import { EXPORT_KEEP_HOURS, type ExportFormat } from '@engram/contracts/exports';
import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import type { inferOutput } from '@trpc/tanstack-react-query';
import { useState } from 'react';
import { Button } from '../../components/button';
import { LoadMore } from '../../components/load-more';
import { ProgressBar } from '../../components/progress-bar';
import { tagsOptions } from '../../entities/cards/queries';
import { formatBytes } from '../../entities/media/storage-figure';
import { toastError } from '../../lib/errors';
import { m } from '../../lib/i18n';
import { queryClient } from '../../lib/query-client';
import { trpc } from '../../lib/trpc';
import { exportMoving, exportShare } from './export-progress';

type ExportJson = inferOutput<typeof trpc.exports.get>;

const FORMATS: { value: ExportFormat; label: () => string; hint: () => string }[] = [
  { value: 'apkg', label: m.export_format_apkg, hint: m.export_format_apkg_hint },
  { value: 'csv', label: m.export_format_csv, hint: m.export_format_csv_hint },
  { value: 'json', label: m.export_format_json, hint: m.export_format_json_hint },
];

const exportsListOptions = trpc.exports.list.infiniteQueryOptions(
  { pageSize: 5 },
  { initialCursor: null, getNextPageParam: (page) => page.nextCursor },
);

function statusText(item: ExportJson): string {
  switch (item.status) {
    case 'queued':
      return m.export_status_queued();
    case 'running':
      return m.export_status_running({ done: item.progress.done, total: item.progress.total });
    case 'done':
      return m.export_status_done({ size: formatBytes(item.size) });
    case 'failed':
      return item.failure ?? m.export_status_failed();
    case 'expired':
      return m.export_status_expired();
  }
}

export function ExportProgress({ exportId }: { exportId: string }) {
  const current = useQuery(
    trpc.exports.get.queryOptions(
      { exportId },
      { refetchInterval: (query) => (query.state.data && !exportMoving(query.state.data.status) ? false : 1_000) },
    ),
  );
  const item = current.data;
  if (!item) return null;
  const share = exportShare(item.status, item.progress);
  return (
    <div className="mt-4 rounded-lg bg-slate-50 p-4">
      <ProgressBar
        label={m.export_progress_label()}
        value={Math.round(share * 100)}
        max={100}
        text={statusText(item)}
      />
      <p className="sr-only" aria-live="polite">
        {exportMoving(item.status) ? '' : statusText(item)}
      </p>
      {item.status === 'done' && item.url && (
        <a
          href={item.url}
          download={item.fileName}
          className="mt-2 inline-flex items-center rounded-lg bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white hover:bg-brand-700"
        >
          {m.export_download({ name: item.fileName })}
        </a>
      )}
    </div>
  );
}

function TagChoice({ chosen, onChange }: { chosen: string[]; onChange: (ids: string[]) => void }) {
  const tags = useInfiniteQuery(tagsOptions);
  const items = tags.data?.pages.flatMap((page) => page.items) ?? [];
  if (items.length === 0) return null;
  const toggle = (id: string) => onChange(chosen.includes(id) ? chosen.filter((t) => t !== id) : [...chosen, id]);
  return (
    <fieldset className="mt-4">
      <legend className="text-sm font-medium text-slate-700">{m.export_tags_legend()}</legend>
      <p className="text-xs text-slate-500">{m.export_tags_hint()}</p>
      <div className="mt-2 flex max-h-40 flex-wrap gap-2 overflow-y-auto">
        {items.map((tag) => (
          <label
            key={tag.id}
            className="inline-flex max-w-full items-center gap-2 rounded-full border border-slate-300 px-3 py-1 text-sm break-all"
          >
            <input type="checkbox" checked={chosen.includes(tag.id)} onChange={() => toggle(tag.id)} />
            {tag.name}
          </label>
        ))}
      </div>
      <LoadMore list={tags} />
    </fieldset>
  );
}

export function ExportPanel() {
  const [format, setFormat] = useState<ExportFormat>('apkg');
  const [tagIds, setTagIds] = useState<string[]>([]);
  const [exportId, setExportId] = useState<string | undefined>();
  const start = useMutation(
    trpc.exports.start.mutationOptions({
      onSuccess: ({ exportId: id }) => {
        setExportId(id);
        void queryClient.invalidateQueries({ queryKey: trpc.exports.list.pathKey() });
      },
      onError: toastError,
    }),
  );
  const recent = useInfiniteQuery(exportsListOptions);
  const earlier = (recent.data?.pages.flatMap((page) => page.items) ?? []).filter((item) => item.id !== exportId);
  return (
    <section
      aria-labelledby="export-heading"
      className="rounded-xl border border-slate-200 bg-white px-6 py-5 shadow-sm"
    >
      <h2 id="export-heading" className="text-lg font-semibold text-slate-900">
        {m.export_heading()}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{m.export_intro({ hours: EXPORT_KEEP_HOURS })}</p>
      <fieldset className="mt-4 space-y-2">
        <legend className="sr-only">{m.export_format_legend()}</legend>
        {FORMATS.map((option) => (
          <label key={option.value} className="flex items-start gap-3 rounded-lg border border-slate-200 p-3">
            <input
              type="radio"
              name="export-format"
              value={option.value}
              checked={format === option.value}
              onChange={() => setFormat(option.value)}
              className="mt-1"
            />
            <span>
              <span className="block text-sm font-medium text-slate-900">{option.label()}</span>
              <span className="block text-xs text-slate-500">{option.hint()}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {format !== 'json' && <TagChoice chosen={tagIds} onChange={setTagIds} />}
      <Button
        className="mt-4"
        pending={start.isPending}
        onClick={() => start.mutate({ format, ...(format !== 'json' && tagIds.length > 0 && { tagIds }) })}
      >
        {m.export_start()}
      </Button>
      {exportId && <ExportProgress key={exportId} exportId={exportId} />}
      {earlier.length > 0 && (
        <div className="mt-6">
          <h3 className="text-sm font-semibold text-slate-700">{m.export_recent_heading()}</h3>
          <ul className="mt-2 divide-y divide-slate-100">
            {earlier.map((item) => (
              <li key={item.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                <span className="min-w-0 break-all text-slate-700">{item.fileName}</span>
                {item.status === 'done' && item.url ? (
                  <a
                    href={item.url}
                    download={item.fileName}
                    className="font-medium text-brand-700 hover:text-brand-800"
                  >
                    {m.export_download_short()}
                  </a>
                ) : (
                  <span className="text-slate-500">{statusText(item)}</span>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
