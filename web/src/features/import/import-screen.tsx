// "/import": bringing cards in from Anki (.apkg, .colpkg) or a CSV or TSV file (issue 27). A file dropped on
// the zone, or chosen, is checked, sent straight to the store with a bar of its own, then previewed (CSV and
// TSV: which column holds what) or imported at once (Anki); the import runs in the background with a
// progress bar, and ends with what came in and what was skipped. Coming back to the page while one runs
// follows it again. The learner's imports are listed below.
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { NeedsNetwork } from '../../components/needs-network';
import { ProgressBar } from '../../components/progress-bar';
import { InlineLoading } from '../../components/query-states';
import { m } from '../../lib/i18n';
import { ColumnMapping } from './column-mapping';
import { DropZone } from './drop-zone';
import { ExportPanel } from './export-panel';
import { FollowedImport } from './followed-import';
import { PastImports } from './past-imports';
import { importsOptions } from './queries';
import { useImportFlow } from './use-import-flow';

function CurrentStep({ flow }: { flow: ReturnType<typeof useImportFlow> }) {
  const { step } = flow;
  switch (step.step) {
    case 'choose':
      return <DropZone onFile={flow.send} />;
    case 'sending': {
      const percent = Math.round(step.share * 100);
      return (
        <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200" data-testid="import-sending">
          <ProgressBar
            label={m.import_sending_label()}
            value={percent}
            max={100}
            text={m.import_sending({ name: step.name, percent: `${percent}%` })}
          />
        </div>
      );
    }
    case 'reading':
      return <InlineLoading label={m.import_reading({ name: step.name })} />;
    case 'preview':
      return (
        <ColumnMapping
          uploadId={step.uploadId}
          name={step.name}
          preview={step.preview}
          onStarted={flow.follow}
          onCancel={flow.restart}
        />
      );
    case 'following':
      return (
        <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <FollowedImport key={step.importId} importId={step.importId} onAnother={flow.restart} />
        </div>
      );
  }
}

/** The newest import still waiting or running on the first page of the list, if any. */
const runningIn = (pages: { items: { id: string; status: string }[] }[] | undefined) =>
  pages?.[0]?.items.find((item) => item.status === 'queued' || item.status === 'running');

export function ImportScreen() {
  const flow = useImportFlow();
  const list = useInfiniteQuery(importsOptions);
  // Once, when the list is first known to be current (a cached list that is stale is read again first): an
  // import left running is followed again.
  const resumed = useRef(false);
  const running = runningIn(list.data?.pages);
  const choosing = flow.step.step === 'choose';
  const current = list.data !== undefined && !list.isFetching;
  useEffect(() => {
    if (resumed.current || !current) return;
    resumed.current = true;
    if (running && choosing) flow.follow(running.id);
  }, [current, running, choosing, flow.follow]);

  return (
    <main id="main" tabIndex={-1} className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <NeedsNetwork />
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{m.import_title()}</h1>
      <p className="mt-1 mb-8 max-w-2xl text-sm text-slate-600">{m.import_intro()}</p>
      <div className="mb-10">
        <CurrentStep flow={flow} />
      </div>
      <PastImports list={list} />
      <div className="mt-10">
        <ExportPanel />
      </div>
    </main>
  );
}
