// "/billing/plans": free, plus and pro side by side, monthly or annual, in dollars, euros or reais. The
// learner's plan is marked; from the free plan they upgrade through Stripe Checkout, with a paid plan they
// change or cancel it in Stripe's Customer Portal. The period and currency live in the URL.
import { CURRENCIES, type Currency, type Interval, PLANS } from '@engram/contracts/billing';
import { useMutation, useQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { Button } from '../../components/button';
import { NeedsNetwork } from '../../components/needs-network';
import { InlineError, InlineLoading } from '../../components/query-states';
import { currencyFor } from '../../entities/billing/currency';
import { annualSaving, formatPrice, type Price, priceOf } from '../../entities/billing/format';
import { PLAN_NAMES } from '../../entities/billing/plan-names';
import { type CustomerStanding, PlanStatus } from '../../entities/billing/plan-summary';
import { customerOptions, plansOptions } from '../../entities/billing/queries';
import { toastError } from '../../lib/errors';
import { getLocale, m } from '../../lib/i18n';
import { trpc } from '../../lib/trpc';

const route = getRouteApi('/protected/billing/plans');

type PlanName = 'free' | (typeof PLANS)[number];

const TAGLINES: Record<PlanName, () => string> = {
  free: m.billing_tagline_free,
  plus: m.billing_tagline_plus,
  pro: m.billing_tagline_pro,
};

/** Sends the browser to a page Stripe (or its stand-in) serves. */
const leaveFor = (url: string) => window.location.assign(url);

function Segmented<T extends string>({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: { value: T; label: ReactNode }[];
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="flex flex-wrap items-center gap-3">
      <legend className="sr-only">{label}</legend>
      <span aria-hidden="true" className="text-sm font-medium text-slate-700">
        {label}
      </span>
      <div className="inline-flex rounded-lg bg-slate-100 p-1">
        {options.map((option) => (
          <label
            key={option.value}
            className="cursor-pointer rounded-md px-3 py-1.5 text-sm font-medium text-slate-600 has-checked:bg-white has-checked:text-slate-900 has-checked:shadow-sm has-focus-visible:outline-2 has-focus-visible:outline-brand-600"
          >
            <input
              type="radio"
              className="sr-only"
              name={label}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function PlanCard({
  plan,
  price,
  monthly,
  interval,
  limit,
  customer,
  action,
}: {
  plan: PlanName;
  price: Price | undefined;
  monthly: Price | undefined;
  interval: Interval;
  limit: number | undefined;
  customer: CustomerStanding;
  action: ReactNode;
}) {
  const current = customer.plan === plan;
  const name = PLAN_NAMES[plan]?.() ?? plan;
  const headingId = `plan-${plan}`;
  let amount: ReactNode;
  if (plan === 'free') {
    amount = <p className="text-3xl font-semibold tracking-tight text-slate-900">{m.billing_price_free()}</p>;
  } else if (!price) {
    amount = <p className="text-sm text-slate-500">{m.billing_unavailable()}</p>;
  } else {
    const saving = interval === 'year' && monthly ? annualSaving(monthly.unitAmount, price.unitAmount) : 0;
    amount = (
      <div>
        <p className="text-3xl font-semibold tracking-tight text-slate-900" data-testid={`price-${plan}`}>
          {formatPrice(price.unitAmount, price.currency)}{' '}
          <span className="text-base font-normal text-slate-500">
            {interval === 'year' ? m.billing_per_year() : m.billing_per_month()}
          </span>
        </p>
        {interval === 'year' && (
          <p className="mt-1 text-sm text-slate-600">
            {m.billing_monthly_equivalent({ price: formatPrice(Math.round(price.unitAmount / 12), price.currency) })}
            {saving > 0 && <> · {m.billing_annual_saves({ percent: saving })}</>}
          </p>
        )}
      </div>
    );
  }
  return (
    <section
      aria-labelledby={headingId}
      className={`flex flex-col gap-5 rounded-2xl bg-white p-6 shadow-sm ring-1 ${
        current ? 'ring-2 ring-brand-600' : 'ring-slate-200'
      }`}
    >
      <div className="flex items-start justify-between gap-3">
        <h2 id={headingId} className="text-lg font-semibold text-slate-900">
          {name}
        </h2>
        {current && (
          <span className="rounded-full bg-brand-50 px-2.5 py-1 text-xs font-semibold text-brand-700">
            {m.billing_current_plan()}
          </span>
        )}
      </div>
      <p className="text-sm text-slate-600">{TAGLINES[plan]()}</p>
      {amount}
      <ul className="space-y-2 text-sm text-slate-700">
        {limit !== undefined && (
          <li>✓ {m.billing_feature_generated({ count: new Intl.NumberFormat(getLocale()).format(limit) })}</li>
        )}
        <li>✓ {m.billing_feature_unlimited()}</li>
        <li>✓ {m.billing_feature_fsrs()}</li>
      </ul>
      {current && plan !== 'free' && <PlanStatus customer={customer} />}
      <div className="mt-auto">{action}</div>
    </section>
  );
}

export function PlansScreen() {
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/billing/plans' });
  const plans = useQuery(plansOptions);
  const customer = useQuery(customerOptions);
  const checkout = useMutation(
    trpc.billing.checkout.mutationOptions({ onSuccess: ({ url }) => leaveFor(url), onError: toastError }),
  );
  const portal = useMutation(
    trpc.billing.portal.mutationOptions({ onSuccess: ({ url }) => leaveFor(url), onError: toastError }),
  );

  // A subscriber sees the plans in the currency and period they pay in, unless they chose otherwise; anyone else
  // first sees the currency of their language or country (entities/billing/currency.ts).
  const interval: Interval = search.interval ?? (customer.data?.interval === 'year' ? 'year' : 'month');
  const subscribed = CURRENCIES.find((currency) => currency === customer.data?.currency);
  const currency: Currency = search.currency ?? subscribed ?? (currencyFor(getLocale(), CURRENCIES) as Currency);
  const choose = (next: { interval?: Interval; currency?: Currency }) =>
    void navigate({ search: { interval, currency, ...next }, replace: true });

  let body: ReactNode;
  if (plans.isPending || customer.isPending) body = <InlineLoading label={m.dashboard_loading()} />;
  else if (plans.isError || customer.isError) {
    body = (
      <InlineError
        message={m.billing_load_failed()}
        onRetry={() => {
          void plans.refetch();
          void customer.refetch();
        }}
      />
    );
  } else {
    const { prices, limits } = plans.data;
    const me = customer.data;
    const paying = me.plan !== 'free';
    // Leaving for Stripe takes a moment: the buttons stay busy until the page is gone.
    const leaving = checkout.isPending || checkout.isSuccess || portal.isPending || portal.isSuccess;
    const bestSaving = Math.max(
      ...PLANS.map((plan) => {
        const month = priceOf(prices, plan, 'month', currency);
        const year = priceOf(prices, plan, 'year', currency);
        return month && year ? annualSaving(month.unitAmount, year.unitAmount) : 0;
      }),
    );
    const actionFor = (plan: PlanName): ReactNode => {
      const name = PLAN_NAMES[plan]?.() ?? plan;
      if (plan === 'free') return null;
      if (paying) {
        return (
          <Button
            variant={me.plan === plan ? 'primary' : 'secondary'}
            className="w-full"
            pending={portal.isPending || portal.isSuccess}
            disabled={leaving}
            onClick={() => portal.mutate()}
          >
            {me.plan === plan ? m.billing_manage() : m.billing_change_plan()}
          </Button>
        );
      }
      const price = priceOf(prices, plan, interval, currency);
      const mine = checkout.variables?.plan === plan;
      return (
        <Button
          className="w-full"
          disabled={!price || leaving}
          pending={mine && (checkout.isPending || checkout.isSuccess)}
          onClick={() => checkout.mutate({ plan, interval, currency })}
        >
          {m.billing_upgrade({ plan: name })}
        </Button>
      );
    };
    body = (
      <>
        <div className="mb-8 flex flex-wrap items-center gap-x-8 gap-y-4">
          <Segmented<Interval>
            label={m.billing_interval_label()}
            value={interval}
            onChange={(next) => choose({ interval: next })}
            options={[
              { value: 'month', label: m.billing_monthly() },
              {
                value: 'year',
                label: (
                  <>
                    {m.billing_annual()}
                    {bestSaving > 0 && (
                      <span className="ml-1.5 text-xs font-semibold text-emerald-700">
                        {m.billing_annual_saving({ percent: bestSaving })}
                      </span>
                    )}
                  </>
                ),
              },
            ]}
          />
          <Segmented<Currency>
            label={m.billing_currency_label()}
            value={currency}
            onChange={(next) => choose({ currency: next })}
            options={CURRENCIES.map((code) => ({ value: code, label: code.toUpperCase() }))}
          />
        </div>
        {me.state === 'not_active' && (
          <div className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-xl bg-red-50 px-5 py-4 ring-1 ring-red-200">
            <p className="text-sm text-red-800">{m.billing_not_active()}</p>
            <Button variant="secondary" pending={portal.isPending} disabled={leaving} onClick={() => portal.mutate()}>
              {m.billing_manage()}
            </Button>
          </div>
        )}
        <div className="grid gap-6 md:grid-cols-3">
          {(['free', ...PLANS] as PlanName[]).map((plan) => (
            <PlanCard
              key={plan}
              plan={plan}
              price={priceOf(prices, plan, interval, currency)}
              monthly={priceOf(prices, plan, 'month', currency)}
              interval={interval}
              limit={limits.find((limit) => limit.plan === plan)?.generatedCardsPerPeriod}
              customer={me}
              action={actionFor(plan)}
            />
          ))}
        </div>
      </>
    );
  }

  return (
    <main className="mx-auto max-w-6xl px-6 py-10">
      <NeedsNetwork />
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{m.billing_plans_title()}</h1>
      <p className="mt-1 mb-6 text-sm text-slate-600">{m.billing_plans_intro()}</p>
      {plans.data?.standIn && (
        <p role="note" className="mb-6 rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200">
          {m.billing_stand_in()}
        </p>
      )}
      {body}
    </main>
  );
}
