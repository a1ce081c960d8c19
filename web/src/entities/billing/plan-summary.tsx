// The learner's plan (dashboard and account settings): its name, when it renews or ends, the way to the
// plans page, and on the account page the generation usage of the period and the storage of card files.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { m } from '../../lib/i18n';
import { UsageFigure } from '../generation/usage-figure';
import { StorageFigure } from '../media/storage-figure';
import { formatDate } from './format';
import { PLAN_NAMES } from './plan-names';
import { customerOptions } from './queries';

export interface CustomerStanding {
  plan: string;
  state: string;
  renewsAt: string | null;
  endsAt: string | null;
}

/** Renews on / ends on / payment failed, for a paid plan; nothing for the free one. */
export function PlanStatus({ customer }: { customer: CustomerStanding }) {
  if (customer.state === 'not_active') return <p className="text-sm text-red-700">{m.billing_not_active()}</p>;
  if (customer.endsAt) {
    return <p className="text-sm text-amber-700">{m.billing_ends_on({ date: formatDate(customer.endsAt) })}</p>;
  }
  if (customer.renewsAt) {
    return <p className="text-sm text-slate-600">{m.billing_renews_on({ date: formatDate(customer.renewsAt) })}</p>;
  }
  return null;
}

/**
 * The plan, and with `usage` the generation figure of the period under it (the account page; the dashboard
 * shows usage in its Generate panel).
 */
export function PlanSummary({ className = '', usage = false }: { className?: string; usage?: boolean }) {
  const customer = useQuery(customerOptions);
  // The plan is secondary here: when it fails, the line is simply absent (the plans page shows the error with a
  // way to retry); while it loads, its place is kept, so nothing below jumps when it comes.
  if (customer.isPending) return <div aria-hidden="true" className={`min-h-[3.25rem] ${className}`} />;
  if (!customer.data) return null;
  const { plan } = customer.data;
  return (
    <section
      aria-label={m.billing_plan_heading()}
      className={`flex flex-wrap items-center justify-between gap-x-6 gap-y-2 ${className}`}
    >
      <div>
        <p className="text-sm font-semibold text-slate-900" data-testid="current-plan">
          {m.billing_plan_summary({ plan: PLAN_NAMES[plan]?.() ?? plan })}
        </p>
        <PlanStatus customer={customer.data} />
        {usage && (
          <div className="mt-3 max-w-sm space-y-3">
            <UsageFigure />
            <StorageFigure />
          </div>
        )}
      </div>
      <Link to="/billing/plans" className="text-sm font-medium text-brand-700 hover:text-brand-800">
        {plan === 'free' ? m.billing_view_plans() : m.billing_manage()}
      </Link>
    </section>
  );
}
