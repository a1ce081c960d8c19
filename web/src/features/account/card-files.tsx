// "Your images and sounds" on the account settings page: the learner's card files, newest first, each with
// its size and how many cards show it, and a way to delete one no card shows any more (a file in use is
// explained, not deleted) — where a learner near their storage quota makes room.
import { useInfiniteQuery } from '@tanstack/react-query';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useConfirmedRemoval } from '../../components/confirmed-removal';
import { PagedList } from '../../components/paged-list';
import { formatBytes, storageOptions } from '../../entities/media/storage-figure';
import type { MediaJson } from '../../entities/media/upload';
import { m } from '../../lib/i18n';
import { queryClient } from '../../lib/query-client';
import { trpc } from '../../lib/trpc';

const filesOptions = trpc.media.list.infiniteQueryOptions(
  { pageSize: 20 },
  { initialCursor: null, getNextPageParam: (page) => page.nextCursor },
);

const refreshFiles = () => queryClient.invalidateQueries({ queryKey: trpc.media.pathKey() });

const shownBy = (count: number) =>
  count === 0 ? m.media_shown_by_none() : count === 1 ? m.media_shown_by_one() : m.media_shown_by({ count });

function FileRow({ file, onDelete }: { file: MediaJson; onDelete: () => void }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3">
      <div className="min-w-0">
        <a
          href={file.path}
          target="_blank"
          rel="noopener noreferrer"
          className="font-medium break-words text-brand-700 hover:text-brand-800"
        >
          {file.name}
        </a>
        <p className="text-xs text-slate-500">
          {file.kind === 'audio' ? m.media_kind_sound() : m.media_kind_image()} · {formatBytes(file.size)} ·{' '}
          {shownBy(file.cardCount)}
        </p>
      </div>
      <Button variant="ghost" onClick={onDelete} aria-label={m.media_delete_named({ name: file.name })}>
        {m.media_delete()}
      </Button>
    </li>
  );
}

export function CardFiles() {
  const files = useInfiniteQuery(filesOptions);
  const removal = useConfirmedRemoval(trpc.media.delete.mutationOptions(), {
    input: (file: MediaJson) => ({ id: file.id }),
    success: m.media_deleted,
    refresh: async () => {
      await Promise.all([refreshFiles(), queryClient.invalidateQueries({ queryKey: storageOptions.queryKey })]);
    },
  });
  return (
    <section
      aria-labelledby="card-files-heading"
      className="mb-6 rounded-xl border border-slate-200 bg-white px-6 py-4 shadow-sm"
    >
      <h2 id="card-files-heading" className="mb-2 text-lg font-semibold text-slate-900">
        {m.media_files_heading()}
      </h2>
      <PagedList
        list={files}
        loadingLabel={m.media_files_loading()}
        failedMessage={m.media_files_failed()}
        empty={m.media_files_empty()}
      >
        {(items) => (
          <ul aria-labelledby="card-files-heading" className="divide-y divide-slate-100">
            {items.map((file) => (
              <FileRow key={file.id} file={file} onDelete={() => removal.ask(file)} />
            ))}
          </ul>
        )}
      </PagedList>
      <ConfirmDialog
        {...removal.dialog}
        title={m.media_delete_title({ name: removal.waiting?.name ?? '' })}
        text={m.media_delete_text()}
        confirmLabel={m.media_delete()}
      />
    </section>
  );
}
