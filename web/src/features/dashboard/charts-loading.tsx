// The dashboard's charts while their code or their figures load: their panels, titled, at about the height they
// will have, so what is below them (the Generate panel, the new-card form) does not jump down when they arrive —
// a click aimed at it would land on a chart. Hidden from screen readers, which hear one "Loading…".
import { m } from '../../lib/i18n';

function LoadingPanel({ title, className = '', body }: { title: string; className?: string; body: string }) {
  return (
    <div aria-hidden="true" className={`rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 ${className}`}>
      <p className="text-sm font-semibold tracking-wide text-slate-500 uppercase">{title}</p>
      <div className={`mt-1 animate-pulse rounded-lg bg-slate-100 ${body}`} />
    </div>
  );
}

export function ChartsLoading() {
  return (
    <div className="grid gap-6 lg:grid-cols-3" data-testid="charts-loading">
      <p role="status" className="sr-only">
        {m.dashboard_loading()}
      </p>
      <LoadingPanel title={m.dashboard_reviews_chart()} className="lg:col-span-2" body="h-[16.75rem]" />
      <LoadingPanel title={m.dashboard_forecast()} body="h-[16.75rem]" />
      <LoadingPanel title={m.dashboard_retention_chart()} className="lg:col-span-3" body="h-[5.5rem]" />
      <LoadingPanel title={m.dashboard_heatmap()} className="lg:col-span-3" body="h-44" />
    </div>
  );
}
