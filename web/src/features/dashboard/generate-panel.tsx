// The dashboard's way into card generation: the usage figure of the period (the dashboard loads
// it, docs/product.md#routes) and a link to the Generate screen.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { buttonClass } from '../../components/button';
import { generationUsageOptions } from '../../entities/generation/usage';
import { m } from '../../lib/i18n';

export function GeneratePanel() {
  const usage = useQuery(generationUsageOptions);
  return (
    <section
      aria-labelledby="generate-panel-heading"
      className="flex flex-wrap items-center justify-between gap-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
    >
      <div>
        <h2 id="generate-panel-heading" className="text-lg font-semibold text-slate-900">
          {m.dashboard_generate_heading()}
        </h2>
        <p className="mt-1 text-sm text-slate-600">{m.dashboard_generate_text()}</p>
        {usage.data && (
          <p data-testid="dashboard-generation-usage" className="mt-1 text-xs text-slate-500">
            {m.generate_usage({ used: usage.data.used, limit: usage.data.limit })}
            {usage.data.generator === 'offline' && ` · ${m.generate_offline_label()}`}
          </p>
        )}
      </div>
      <Link to="/generate" className={buttonClass('primary')}>
        {m.nav_generate()}
      </Link>
    </section>
  );
}
