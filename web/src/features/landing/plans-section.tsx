// The landing page's plans: free, plus and pro with what each includes (the AI allowance from billing's
// catalogue), monthly and annual prices in the visitor's currency (switchable). Every plan leads to sign-up;
// choosing and paying happen in the app's /billing/plans once signed in.
import type { Currency } from '@engram/contracts/billing';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { buttonClass } from '../../components/button';
import { currencyFor } from '../../entities/billing/currency';
import { formatPrice, priceOf } from '../../entities/billing/format';
import { PLAN_NAMES } from '../../entities/billing/plan-names';
import { getLocale, m, useLocale } from '../../lib/i18n';
import { currenciesOf, plansQuery } from './plans';

const PLANS = ['free', 'plus', 'pro'] as const;
type PlanId = (typeof PLANS)[number];

const taglines: Record<PlanId, () => string> = {
  free: m.billing_tagline_free,
  plus: m.billing_tagline_plus,
  pro: m.billing_tagline_pro,
};

function Prices({ plan, currency }: { plan: PlanId; currency: Currency }) {
  const plans = useQuery(plansQuery);
  if (plan === 'free')
    return <p className="mt-6 text-3xl font-bold tracking-tight text-slate-900">{m.billing_price_free()}</p>;
  if (plans.isPending) return <p className="mt-6 text-sm text-slate-600">{m.plans_loading()}</p>;
  if (plans.isError) return <p className="mt-6 text-sm text-slate-600">{m.plans_unavailable()}</p>;
  const monthly = priceOf(plans.data.prices, plan, 'month', currency);
  const annual = priceOf(plans.data.prices, plan, 'year', currency);
  return (
    <div className="mt-6 space-y-1">
      {monthly && (
        <p className="text-3xl font-bold tracking-tight text-slate-900">
          {m.plans_per_month({ price: formatPrice(monthly.unitAmount, currency) })}
        </p>
      )}
      {annual && (
        <p className="text-sm text-slate-600">
          {m.plans_per_year({ price: formatPrice(annual.unitAmount, currency) })}
        </p>
      )}
    </div>
  );
}

function PlanCard({ plan, currency, limit }: { plan: PlanId; currency: Currency; limit: number | undefined }) {
  const name = PLAN_NAMES[plan]?.() ?? plan;
  return (
    <li className="flex flex-col rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h3 className="text-lg font-semibold text-slate-900">{name}</h3>
      <p className="mt-2 text-sm leading-6 text-slate-600">{taglines[plan]()}</p>
      <Prices plan={plan} currency={currency} />
      <ul className="mt-6 flex-1 space-y-2 text-sm text-slate-700">
        {limit !== undefined && (
          <li>{m.billing_feature_generated({ count: new Intl.NumberFormat(getLocale()).format(limit) })}</li>
        )}
        <li>{m.billing_feature_unlimited()}</li>
        <li>{m.billing_feature_fsrs()}</li>
      </ul>
      <Link
        to="/auth/$pathname"
        params={{ pathname: 'sign-up' }}
        className={buttonClass(plan === 'free' ? 'secondary' : 'primary', 'mt-6')}
        aria-label={m.plans_choose({ plan: name })}
      >
        {plan === 'free' ? m.plans_start_free() : m.plans_get({ plan: name })}
      </Link>
    </li>
  );
}

export function PlansSection() {
  const locale = useLocale();
  const plans = useQuery(plansQuery);
  const [chosen, setChosen] = useState<string>();
  const currencyId = useId();
  const currencies = currenciesOf(plans.data?.prices ?? []);
  const currency = (chosen && currencies.includes(chosen) ? chosen : currencyFor(locale, currencies)) as Currency;
  const limitOf = (plan: PlanId) => plans.data?.limits.find((limit) => limit.plan === plan)?.generatedCardsPerPeriod;

  return (
    <section aria-labelledby="plans" className="pb-24">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 id="plans" className="text-3xl font-bold tracking-tight text-slate-900">
            {m.billing_plans_title()}
          </h2>
          <p className="mt-2 text-slate-600">{m.billing_plans_intro()}</p>
        </div>
        {currencies.length > 1 && (
          <div className="flex items-center gap-2 text-sm text-slate-700">
            <label htmlFor={currencyId}>{m.billing_currency_label()}</label>
            <select
              id={currencyId}
              value={currency}
              onChange={(event) => setChosen(event.target.value)}
              className="rounded-md border-0 bg-white py-1.5 pr-8 pl-2 text-sm text-slate-900 ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 focus:outline-none"
            >
              {currencies.map((code) => (
                <option key={code} value={code}>
                  {code.toUpperCase()}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      <ul className="mt-8 grid gap-6 md:grid-cols-3">
        {PLANS.map((plan) => (
          <PlanCard key={plan} plan={plan} currency={currency} limit={limitOf(plan)} />
        ))}
      </ul>
    </section>
  );
}
