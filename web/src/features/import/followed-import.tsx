// One import followed from its start to its end: a progress bar while it waits and runs (imports.get asked
// every second), left full once it is done above what came in; or why it failed. Its end is announced to screen readers, and the cards and the list of
// imports are read again.
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { ProgressBar } from '../../components/progress-bar';
import { InlineError, InlineLoading } from '../../components/query-states';
import { refreshCards } from '../../entities/cards/queries';
import { trpcCode } from '../../lib/errors';
import { m } from '../../lib/i18n';
import { ImportDone, ImportFailed } from './import-result';
import { importOptions, refreshImports } from './queries';
import { formatCount, isOver, problemWords, progressText } from './wording';

export function FollowedImport({ importId, onAnother }: { importId: string; onAnother: () => void }) {
  const followed = useQuery(importOptions(importId));
  const current = followed.data;
  const status = current?.status;

  // An import this tab remembered that is not the learner's (another account signed in since): choose again.
  const gone = followed.isError && trpcCode(followed.error) === 'NOT_FOUND';
  useEffect(() => {
    if (gone) onAnother();
  }, [gone, onAnother]);

  useEffect(() => {
    if (status !== 'done' && status !== 'failed') return;
    void refreshImports();
    if (status === 'done') void refreshCards();
  }, [status]);

  let announcement = '';
  if (current?.status === 'done') {
    announcement = m.import_announce_done({
      notes: formatCount(current.counts.notes),
      skipped: formatCount(current.counts.skipped),
    });
  } else if (current?.status === 'failed') {
    const first = current.problems[0];
    announcement = m.import_announce_failed({ message: first ? problemWords(first) : m.import_failed_unknown() });
  }

  let body: ReactNode;
  if (!current) {
    body = followed.isError ? (
      <InlineError message={m.import_failed_unknown()} onRetry={() => void followed.refetch()} />
    ) : (
      <InlineLoading label={m.import_starting()} />
    );
  } else if (current.status === 'failed') {
    body = <ImportFailed current={current} onAnother={onAnother} />;
  } else {
    const done = current.status === 'done';
    body = (
      <div className="space-y-6">
        <section aria-labelledby="import-status-heading" className="space-y-3" data-testid={`import-${current.status}`}>
          <h2 id="import-status-heading" className="text-lg font-semibold [overflow-wrap:anywhere] text-slate-900">
            {done ? m.import_done_heading({ name: current.name }) : m.import_running_heading({ name: current.name })}
          </h2>
          {/* Left full once done, beside what came in; an empty file has nothing to count. */}
          {(!done || current.progress.total > 0) && (
            <ProgressBar
              label={m.import_progress_label()}
              value={current.progress.done}
              max={current.progress.total}
              text={progressText(current)}
            />
          )}
        </section>
        {done && <ImportDone current={current} onAnother={onAnother} />}
      </div>
    );
  }

  return (
    <>
      {body}
      <p role="status" className="sr-only" data-testid="import-announcement">
        {isOver(current) ? announcement : ''}
      </p>
    </>
  );
}
