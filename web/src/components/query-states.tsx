// The small loading and error states every panel and list shows while its query is pending or failed.
import { m } from '../lib/i18n';
import { Button } from './button';
import { Spinner } from './spinner';

export function InlineLoading({ label }: { label: string }) {
  return (
    <div className="flex items-center gap-2 py-6 text-sm text-slate-500" role="status">
      <Spinner className="size-4 text-brand-600" /> {label}
    </div>
  );
}

export function InlineError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="rounded-xl bg-red-50 px-5 py-4 text-sm text-red-700 ring-1 ring-red-200" role="alert">
      <p className="font-medium">{message}</p>
      <Button variant="secondary" className="mt-3" onClick={onRetry}>
        {m.cards_try_again()}
      </Button>
    </div>
  );
}
