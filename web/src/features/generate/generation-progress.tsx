// While proposals stream: a progress bar (cards so far of those asked for); afterwards, how it ended —
// complete, stopped early by the model (the cards shown are kept), or with nothing usable.
import { Spinner } from '../../components/spinner';
import { OfflineLabel } from '../../entities/generation/usage-figure';
import { m } from '../../lib/i18n';
import type { GenerationState } from './drafts';

export function GenerationProgress({ generation }: { generation: GenerationState }) {
  const { running, started, finished, drafts } = generation;
  const requested = started?.requested ?? 0;
  return (
    <div aria-live="polite" className="space-y-2">
      {started?.generator === 'offline' && running && <OfflineLabel />}
      {running && (
        <div role="status" data-testid="generation-progress">
          <p className="inline-flex items-center gap-2 text-sm text-slate-700">
            <Spinner /> {m.generate_progress({ count: drafts.length, requested: requested || '…' })}
          </p>
          <progress
            className="mt-1.5 block h-1.5 w-full overflow-hidden rounded-full [&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:bg-brand-600"
            max={requested || 1}
            value={drafts.length}
            aria-label={m.generate_progress({ count: drafts.length, requested: requested || '…' })}
          />
        </div>
      )}
      {finished && (
        <p data-testid="generation-outcome" className="text-sm text-slate-600">
          {finished.delivered === 0
            ? m.generate_none()
            : finished.outcome === 'interrupted'
              ? m.generate_interrupted()
              : m.generate_done({ count: finished.delivered, dropped: finished.dropped })}
        </p>
      )}
    </div>
  );
}
