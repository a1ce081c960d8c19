// "/billing/success?session_id=…": where Stripe Checkout returns after a payment. The plan changes when
// Stripe's webhook reaches billing, which can land a moment after the learner does, so this page asks
// billing about the checkout until its subscription is recorded, then shows the new plan.
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { buttonClass } from '../../components/button';
import { NeedsNetwork } from '../../components/needs-network';
import { Spinner } from '../../components/spinner';
import { PLAN_NAMES } from '../../entities/billing/plan-names';
import { trpcCode } from '../../lib/errors';
import { m } from '../../lib/i18n';
import { queryClient } from '../../lib/query-client';
import { trpc } from '../../lib/trpc';

const route = getRouteApi('/protected/billing/success');

/** How often to ask while the webhook is on its way, and when to say it is taking long. */
const POLL_MS = 1000;
const SLOW_AFTER_MS = 20_000;

function NextSteps() {
  return (
    <div className="mt-8 flex flex-wrap justify-center gap-3">
      <Link to="/dashboard" className={buttonClass('primary')}>
        {m.billing_to_dashboard()}
      </Link>
      <Link to="/billing/plans" className={buttonClass('secondary')}>
        {m.billing_see_plans()}
      </Link>
    </div>
  );
}

function Shell({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16 text-center">
      <NeedsNetwork />
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
      {children}
    </main>
  );
}

export function CheckoutSuccessScreen() {
  const { session_id: sessionId } = route.useSearch();
  const [slow, setSlow] = useState(false);
  const checkout = useQuery(
    trpc.billing.checkoutSession.queryOptions(
      { sessionId },
      {
        staleTime: 0,
        // Asked again until the subscription is recorded; a checkout that was never paid will not become one.
        refetchInterval: (query) => {
          const data = query.state.data;
          if (!data || data.fulfilled || data.status === 'expired') return false;
          return data.status === 'open' && !data.paid ? false : POLL_MS;
        },
        retry: (failures, error) =>
          trpcCode(error) !== 'NOT_FOUND' && trpcCode(error) !== 'BAD_REQUEST' && failures < 3,
      },
    ),
  );
  const fulfilled = checkout.data?.fulfilled === true;

  useEffect(() => {
    if (fulfilled) return;
    const timer = setTimeout(() => setSlow(true), SLOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, [fulfilled]);

  useEffect(() => {
    // Everything that shows the plan (dashboard, plans, account) reads it afresh.
    if (fulfilled) void queryClient.invalidateQueries({ queryKey: trpc.billing.customer.queryKey() });
  }, [fulfilled]);

  if (checkout.isError) {
    return (
      <Shell title={m.billing_success_not_found()}>
        <p className="mt-2 text-sm text-slate-600" role="alert">
          {checkout.error.message}
        </p>
        <NextSteps />
      </Shell>
    );
  }
  const data = checkout.data;
  if (data?.fulfilled) {
    const plan = PLAN_NAMES[data.plan]?.() ?? data.plan;
    const interval = data.interval === 'year' ? m.billing_interval_year() : m.billing_interval_month();
    return (
      <Shell title={m.billing_success_title({ plan })}>
        <p className="mt-2 text-sm text-slate-600" role="status">
          {m.billing_success_text({ plan, interval })}
        </p>
        <NextSteps />
      </Shell>
    );
  }
  if (data?.status === 'expired' || (data?.status === 'open' && !data.paid)) {
    return (
      <Shell title={m.billing_cancel_title()}>
        <p className="mt-2 text-sm text-slate-600">
          {data.status === 'expired' ? m.billing_success_expired() : m.billing_success_unpaid()}
        </p>
        <NextSteps />
      </Shell>
    );
  }
  return (
    <Shell title={m.billing_success_title_waiting()}>
      <div className="mt-6 flex justify-center" role="status" aria-live="polite">
        <Spinner className="size-8 text-brand-600" />
        <span className="sr-only">{m.billing_success_title_waiting()}</span>
      </div>
      <p className="mt-4 text-sm text-slate-600">{slow ? m.billing_success_slow() : m.billing_success_waiting()}</p>
      {slow && <NextSteps />}
    </Shell>
  );
}

/** A success link without its session_id (hand-edited or cut short). */
export function CheckoutSuccessInvalid() {
  return (
    <Shell title={m.billing_success_invalid_title()}>
      <p className="mt-2 text-sm text-slate-600">{m.billing_success_invalid_text()}</p>
      <NextSteps />
    </Shell>
  );
}
