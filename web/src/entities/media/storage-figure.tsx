// The learner's storage for card images and sounds: used of what their plan keeps (the account page shows
// it under the plan, beside the generation figure).
import { useQuery } from '@tanstack/react-query';
import { getLocale, m } from '../../lib/i18n';
import { trpc } from '../../lib/trpc';

export const storageOptions = trpc.media.list.queryOptions({ pageSize: 1 });

/** Bytes as the reader reads them: "1.2 MB", "350 KB". */
export function formatBytes(bytes: number, locale: string = getLocale()): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: units[unit],
    unitDisplay: 'short',
    maximumFractionDigits: value < 10 && unit > 0 ? 1 : 0,
  }).format(value);
}

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
