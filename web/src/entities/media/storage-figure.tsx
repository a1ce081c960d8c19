// The learner's storage for card images and sounds: used of what their plan keeps (the account page shows
// it under the plan, beside the generation figure).
import { useQuery } from '@tanstack/react-query';
import { m } from '../../lib/i18n';
import { trpc } from '../../lib/trpc';
import { formatBytes } from './bytes';

export { formatBytes };

export const storageOptions = trpc.media.list.queryOptions({ pageSize: 1 });

export function StorageFigure() {
  const storage = useQuery(storageOptions);
  if (!storage.data || storage.data.quotaBytes <= 0) return null;
  const { usedBytes, quotaBytes } = storage.data;
  const percent = Math.min(100, Math.round((usedBytes / quotaBytes) * 100));
  return (
    <div data-testid="media-storage">
      <p className="text-sm font-medium text-slate-700">
        {m.media_storage({ used: formatBytes(usedBytes), quota: formatBytes(quotaBytes) })}
      </p>
      <div className="mt-1.5 h-1.5 rounded-full bg-slate-200" aria-hidden="true">
        <div className="h-1.5 rounded-full bg-brand-600" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
