// The learner's generation usage (used of limit, and when it renews), with the offline generator's label
// when that is what serves this installation.
import { useQuery } from '@tanstack/react-query';
import { m } from '../../lib/i18n';
import { formatDate } from '../billing/format';
import { generationUsageOptions } from './usage';

export function OfflineLabel() {
  return (
    <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
      <span className="font-semibold">{m.generate_offline_label()}</span> · {m.generate_offline_hint()}
    </p>
  );
}

export function UsageFigure() {
  const usage = useQuery(generationUsageOptions);
  if (!usage.data) return null;
  const { used, limit, resetsAt, generator } = usage.data;
  const percent = limit > 0 ? Math.min(100, Math.round((used / limit) * 100)) : 100;
  return (
    <div className="space-y-3">
      <div data-testid="generation-usage">
        <p className="text-sm font-medium text-slate-700">{m.generate_usage({ used, limit })}</p>
        <div className="mt-1.5 h-1.5 rounded-full bg-slate-200" aria-hidden="true">
          <div className="h-1.5 rounded-full bg-brand-600" style={{ width: `${percent}%` }} />
        </div>
        {resetsAt && (
          <p className="mt-1 text-xs text-slate-500">
            {m.generate_usage_resets({
              date: formatDate(resetsAt),
            })}
          </p>
        )}
      </div>
      {generator === 'offline' && <OfflineLabel />}
    </div>
  );
}
